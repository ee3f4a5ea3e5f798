import { TroupeError, idempotencyKeyOf } from "@troupe/protocol";
import { z } from "zod";
import { type ToolEffectClass, toolEffectClassSchema } from "./define-tool.js";

/**
 * Input of the `tool.execute` effect. `agent` may arrive as `null` after a
 * storage round trip (= absent); `idempotencyKey` defaults to
 * `<sessionId>/<runId>/<toolCallId>`; `effectClass` defaults to the tool's.
 *
 * Shape: `{ sessionId, runId, toolCallId, toolName, input (raw arguments JSON
 * text; an object is accepted and serialised), effectClass?, agent?, idempotencyKey? }`.
 */
export const toolExecuteInputSchema = z.object({
  sessionId: z.string().min(1),
  runId: z.string().min(1),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  /** The arguments exactly as the model wrote them (JSON text, possibly empty or invalid); an object is serialised. */
  input: z.union([z.string(), z.record(z.string(), z.unknown())]),
  /** The class the run decided on (from the tool definition at model-call time). */
  effectClass: toolEffectClassSchema.nullish(),
  /** Agent whose tool this is; absent = the host's default agent. */
  agent: z.string().min(1).nullish(),
  idempotencyKey: z.string().min(1).nullish(),
});

/**
 * A `tool.execute` input as the handler reads it: the machine's request
 * (`ToolExecuteInput` of @troupe/machines) validated, with defaults filled in;
 * see {@link toolExecuteInputSchema}.
 */
export interface ParsedToolExecuteInput {
  readonly sessionId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** Raw arguments JSON text. */
  readonly input: string;
  /** Undefined = the tool definition's class. */
  readonly effectClass: ToolEffectClass | undefined;
  /** Undefined = the host's default agent. */
  readonly agent: string | undefined;
  /** `<sessionId>/<runId>/<toolCallId>` unless the input named another. */
  readonly idempotencyKey: string;
}

// The output (`ToolExecuteOutput`, `readToolExecuteOutput`) is the machine's:
// @troupe/machines owns the effect's contract with the tool call actor.
export type { ToolExecuteOutput } from "@troupe/machines";

/**
 * Validates the input of a `tool.execute` effect.
 *
 * @param input - the effect input as the host hands it over.
 * @returns the input with defaults filled in.
 * @throws TroupeError `internal` (not retryable) when it does not match {@link toolExecuteInputSchema}.
 */
export function parseToolExecuteInput(input: unknown): ParsedToolExecuteInput {
  const parsed = toolExecuteInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new TroupeError(
      "internal",
      `invalid tool.execute input: ${z.prettifyError(parsed.error)}`,
      {
        details: {
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map(String),
            message: issue.message,
          })),
        },
      },
    );
  }
  const data = parsed.data;
  return {
    ...data,
    input: typeof data.input === "string" ? data.input : JSON.stringify(data.input),
    effectClass: data.effectClass ?? undefined,
    agent: data.agent ?? undefined,
    idempotencyKey:
      data.idempotencyKey ?? idempotencyKeyOf(data.sessionId, data.runId, data.toolCallId),
  };
}
