import { z } from "zod";
import { type ToolIssue, InvalidToolError } from "./invalid-tool-error.js";

/** Effect classes of tools: the protocol's (`@troupe/protocol`, `tool-effect-class.ts`). */
export { toolEffectClassSchema, type ToolEffectClass } from "@troupe/protocol";
import { toolEffectClassSchema, type ToolEffectClass } from "@troupe/protocol";

/**
 * Execution attempts in all (the first execution and its retries) for a `read`
 * or `idempotent_write` call, counted in the call's idempotency record across
 * hosts.
 */
export const MAX_TOOL_EXECUTION_ATTEMPTS = 3;
/** Time a tool's `execute` may take when the tool sets no `timeoutMs`, in ms. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** Size of a result the model sees in full when the tool sets no `maxResultBytes`, in bytes (UTF-8). */
export const DEFAULT_MAX_TOOL_RESULT_BYTES = 16_384;
/**
 * Largest `maxResultBytes` a tool may set: 512 KiB (524 288 UTF-8 bytes). The
 * result a model sees travels in a `tool.execute` effect result, a
 * `tool.finished` message, a `tool.completed` event and a transcript entry, each
 * limited to the 1 MiB payload limit (`DEFAULT_MAX_PAYLOAD_BYTES`) together with
 * the call's arguments and the envelope; half of it leaves room for those.
 * Longer results are kept in full by reference (`ToolResultStore`) and reach the
 * model truncated (docs/decisions/0009).
 */
export const MAX_TOOL_RESULT_BYTES = 512 * 1024;
/** Tool names: 1 to 64 characters from `A-Z a-z 0-9 _ -` (what providers accept as function names). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Whether calls of this class may run again after an execution attempt that
 * failed or was interrupted (`read`, `idempotent_write`).
 *
 * @param effectClass - the tool's effect class.
 */
export function isRetryableEffectClass(effectClass: ToolEffectClass): boolean {
  return effectClass === "read" || effectClass === "idempotent_write";
}

/** What a tool's `execute` receives beside its input. */
export interface ToolExecutionContext {
  /**
   * The session whose run called the tool (a subagent's own `sub-…` session
   * for its calls): key per-session data with it (the demo's notes).
   */
  readonly sessionId: string;
  /** The run that called the tool. */
  readonly runId: string;
  /** The tool call's id, as the model gave it. */
  readonly toolCallId: string;
  /** `<sessionId>/<runId>/<toolCallId>`: the same for every execution attempt; pass it on to APIs that deduplicate (payments, …). */
  readonly idempotencyKey: string;
  /** Aborted on timeout, cancellation of the run, or when the host gives the call up. */
  readonly signal: AbortSignal;
  /**
   * The execution attempt, 1-based: the n-th execution of this tool call under
   * its idempotency record (it grows across the handler's retries and across
   * hosts; at most {@link MAX_TOOL_EXECUTION_ATTEMPTS} for `read` and
   * `idempotent_write`, always 1 for the other classes). Not the model call's
   * retry, nor the effect's host run.
   */
  readonly attempt: number;
  /**
   * Reports progress of a long call (docs/decisions/0024): published as a transient
   * `tool.progress` event on the session's subjects, at most one every 250 ms
   * per call (the latest report of a burst is published). `progress` should
   * grow with each report; `total` is the expected end in the same unit, when
   * known. Never throws; reports after the call ended are dropped. Always set
   * by the `tool.execute` handler; optional so that a test can call `execute`
   * with a context of its own.
   */
  readonly reportProgress?: (report: ToolProgressReport) => void;
}

/** One progress report of a running tool call: `{ progress, total?, message? }` (numbers in the tool's own unit). */
export interface ToolProgressReport {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** What {@link defineTool} takes; `Schema` is the zod object schema of the input. */
export interface ToolOptions<Schema extends z.ZodObject = z.ZodObject> {
  /** Name the model calls the tool by; see {@link TOOL_NAME_PATTERN}. */
  readonly name: string;
  /** What the tool does and when to use it, for the model. */
  readonly description: string;
  /** Zod object schema of the arguments; the model sees its JSON schema. */
  readonly inputSchema: Schema;
  /**
   * The JSON Schema the model sees, when the tool's schema comes from elsewhere
   * (an MCP server's `inputSchema`). Default: the JSON Schema of
   * `inputSchema`, which still validates the arguments.
   */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
  /** Default `unclassified` (never run twice). */
  readonly effectClass?: ToolEffectClass;
  /** Time one execution attempt may take, in ms (whole, ≥ 1); default 30 000 ms. */
  readonly timeoutMs?: number;
  /**
   * Largest result the model sees in full, in UTF-8 bytes (whole, 1 to
   * {@link MAX_TOOL_RESULT_BYTES}); default 16 384 bytes. A longer result is
   * stored by reference and the model sees its beginning.
   */
  readonly maxResultBytes?: number;
  /** Runs the tool; the result is plain data or a string. Throw to fail the call. */
  execute(input: z.infer<Schema>, context: ToolExecutionContext): Promise<unknown>;
}

/** A validated tool with every default filled in. Frozen. */
export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Schema;
  /** See `ToolOptions.inputJsonSchema`; undefined = `inputSchema`'s. */
  readonly inputJsonSchema: Readonly<Record<string, unknown>> | undefined;
  readonly effectClass: ToolEffectClass;
  /** In ms. */
  readonly timeoutMs: number;
  /** In UTF-8 bytes. */
  readonly maxResultBytes: number;
  execute(input: z.infer<Schema>, context: ToolExecutionContext): Promise<unknown>;
}

const toolBrand = Symbol.for("troupe.tool");

const toolPlainPartsSchema = z.object({
  name: z
    .string()
    .regex(TOOL_NAME_PATTERN, 'must be 1 to 64 characters from A-Z, a-z, 0-9, "_" and "-"'),
  description: z.string().min(1, "must not be empty"),
  effectClass: toolEffectClassSchema.default("unclassified"),
  timeoutMs: z.number().int().min(1).default(DEFAULT_TOOL_TIMEOUT_MS),
  maxResultBytes: z
    .number()
    .int()
    .min(1)
    .max(
      MAX_TOOL_RESULT_BYTES,
      `must be at most ${MAX_TOOL_RESULT_BYTES} bytes (MAX_TOOL_RESULT_BYTES, 512 KiB), so a result fits the 1 MiB message limit; longer results are stored by reference`,
    )
    .default(DEFAULT_MAX_TOOL_RESULT_BYTES),
});

/**
 * Defines a tool: name, description, zod input schema, effect class, limits and
 * `execute`, which receives the validated input (`z.infer` of the schema) and
 * the call's idempotency key, abort signal and execution attempt.
 *
 * @param options - see {@link ToolOptions}.
 * @returns the frozen {@link ToolDefinition}.
 * @throws InvalidToolError (code `invalid_agent`) listing every problem, e.g. a
 *   `maxResultBytes` above {@link MAX_TOOL_RESULT_BYTES}.
 * @see ./README.md — effect classes, idempotency records and the `tool.execute` contract
 * @example
 * ```ts
 * const getWeather = defineTool({
 *   name: "get_weather",
 *   description: "Current weather of a city.",
 *   inputSchema: z.object({ city: z.string() }),
 *   effectClass: "read",
 *   execute: async ({ city }, { signal }) => fetchWeather(city, signal),
 * });
 * ```
 */
export function defineTool<Schema extends z.ZodObject>(
  options: ToolOptions<Schema>,
): ToolDefinition<Schema> {
  const issues: ToolIssue[] = [];
  const plain = toolPlainPartsSchema.safeParse({
    name: options.name,
    description: options.description,
    effectClass: options.effectClass,
    timeoutMs: options.timeoutMs,
    maxResultBytes: options.maxResultBytes,
  });
  if (!plain.success) {
    for (const issue of plain.error.issues) {
      issues.push({ path: issue.path.map(String), message: issue.message });
    }
  }
  if (!(options.inputSchema instanceof z.ZodObject)) {
    issues.push({ path: ["inputSchema"], message: "must be a zod object schema (z.object)" });
  }
  if (
    options.inputJsonSchema !== undefined &&
    (typeof options.inputJsonSchema !== "object" || options.inputJsonSchema === null)
  ) {
    issues.push({ path: ["inputJsonSchema"], message: "must be a JSON Schema object" });
  }
  if (typeof options.execute !== "function") {
    issues.push({ path: ["execute"], message: "must be a function" });
  }
  const name = typeof options.name === "string" ? options.name : undefined;
  if (!plain.success || issues.length > 0) throw new InvalidToolError(name, issues);
  const execute = options.execute.bind(options);
  return Object.freeze({
    ...plain.data,
    inputSchema: options.inputSchema,
    inputJsonSchema: options.inputJsonSchema,
    execute,
    [toolBrand]: true,
  });
}

/**
 * Whether `value` is a tool made with {@link defineTool} (from any copy of the package).
 *
 * @param value - anything.
 */
export function isToolDefinition(value: unknown): value is ToolDefinition {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [toolBrand]?: unknown })[toolBrand] === true
  );
}
