import { z } from "zod";
import { identifierSchema } from "../field-schemas.js";
import { toolExecutionStatusSchema } from "../tool-call-status.js";
import { toolEffectClassSchema } from "../tool-effect-class.js";
import { nullAsAbsent } from "./null-as-absent.js";
import { mediaRefSchema } from "../media-ref.js";

/**
 * Name of the effect that runs one tool call: requested by the tool call
 * machine (`tool/<toolActorId>`), handled by the agent host (`@troupe/agents`).
 */
export const TOOL_EXECUTE_EFFECT = "tool.execute";

/**
 * Input of the `tool.execute` effect, as the tool call machine requests it. The
 * handler finds the tool `toolName` of the agent, parses `input` (an empty text
 * counts as `{}`) and validates it against the tool's schema, runs the tool
 * behind the call's idempotency record and returns a {@link ToolExecuteOutput}.
 * `null` reads as absent.
 *
 * Shape: `{ sessionId, runId, toolCallId, toolName, input (raw arguments text;
 * an object is accepted and serialised), effectClass?, agent?, idempotencyKey? }`.
 */
export const toolExecuteInputSchema = nullAsAbsent(
  z.object({
    sessionId: identifierSchema,
    runId: identifierSchema,
    toolCallId: identifierSchema,
    toolName: z.string().min(1),
    /** The arguments exactly as the model wrote them (usually JSON, possibly empty or invalid). */
    input: z.union([z.string(), z.record(z.string(), z.unknown())]),
    /** The class the run decided on at model-call time; absent = the tool definition's. */
    effectClass: toolEffectClassSchema.optional(),
    /** Agent whose tools to use; absent = the host's default agent. */
    agent: z.string().min(1).optional(),
    /** `<sessionId>/<runId>/<toolCallId>` (`idempotencyKeyOf`); absent = that. */
    idempotencyKey: z.string().min(1).optional(),
  }),
);
/** See {@link toolExecuteInputSchema}. */
export type ToolExecuteInput = z.infer<typeof toolExecuteInputSchema>;

/**
 * Output of the `tool.execute` effect (`effect.completed.output`), plain data.
 * Unknown fields are dropped and `null` reads as absent.
 *
 * - `succeeded` — `content` is the tool's result as text;
 * - `failed` — the tool threw; `content` says why;
 * - `invalid_arguments` — the arguments did not parse or match the schema, or
 *   the tool is unknown; the tool did not run;
 * - `outcome_unknown` — a call that runs at most once may have started before
 *   a crash and left no result; it was not run again.
 *
 * Shape: `{ status, content: string, truncated?: boolean, resultRef?: string }`;
 * `truncated` is true when `content` was shortened to the tool's limit, and
 * `resultRef` then names the full result in the host's result store.
 * `media` (docs/decisions/0045) references images or files the tool returned, stored in
 * the media Object Store (`content` then holds the rest of the result).
 */
export const toolExecuteOutputSchema = nullAsAbsent(
  z.object({
    status: toolExecutionStatusSchema,
    content: z.string(),
    truncated: z.boolean().optional(),
    resultRef: z.string().min(1).optional(),
    media: z.array(mediaRefSchema).optional(),
  }),
);
/** See {@link toolExecuteOutputSchema}. */
export type ToolExecuteOutput = z.infer<typeof toolExecuteOutputSchema>;
