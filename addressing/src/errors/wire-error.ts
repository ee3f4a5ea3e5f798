import { z } from "zod";
import { TroupeError } from "./troupe-error.js";

/**
 * An error as it crosses NATS (inside `effect.failed`, `tool.failed`, …): plain
 * data, never a serialized `Error`.
 *
 * Shape: `{ code: string, message: string, retryable: boolean, details?: Record<string, unknown> }`.
 * `code` is a `TroupeErrorCode` when Troupe produced the error; it is typed as a
 * string so that codes added later still decode.
 */
export const wireErrorSchema = z.object({
  code: z.string().min(1),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** An error on the wire; see {@link wireErrorSchema}. */
export type WireError = z.infer<typeof wireErrorSchema>;

/**
 * Turns anything thrown into a {@link WireError}.
 *
 * - a `TroupeError` keeps its `code`, `retryable` and `details` (details are
 *   reduced to JSON data: bigints become strings, errors inside them become
 *   their message, functions and cycles are dropped); its `message` is
 *   {@link messageWithCauses} — the cause does not cross the wire, its message does;
 * - a value that already is a `WireError` is returned as parsed;
 * - any other `Error` becomes `{ code: "internal", message: messageWithCauses(error), retryable: false }`;
 * - anything else becomes an `internal` error describing the value.
 *
 * The stack and the `cause` objects never leave the process.
 *
 * @param error - anything, typically a caught exception.
 * @returns plain data that matches {@link wireErrorSchema}.
 *
 * @example
 * ```ts
 * try {
 *   await runTool();
 * } catch (error) {
 *   publish({ type: "effect.failed", payload: { effectId, error: toWireError(error) } });
 * }
 * ```
 */
export function toWireError(error: unknown): WireError {
  if (TroupeError.isInstance(error)) {
    const details = toJsonDetails(error.details);
    return {
      code: error.code,
      message: messageWithCauses(error),
      retryable: error.retryable,
      ...(details === undefined ? {} : { details }),
    };
  }
  const alreadyWire = wireErrorSchema.safeParse(error);
  if (alreadyWire.success && !(error instanceof Error)) return alreadyWire.data;
  if (error instanceof Error) {
    return { code: "internal", message: messageWithCauses(error) || error.name, retryable: false };
  }
  if (typeof error === "string") return { code: "internal", message: error, retryable: false };
  return {
    code: "internal",
    message: `A non-error value was thrown: ${describe(error)}.`,
    retryable: false,
  };
}

/** How many causes {@link messageWithCauses} follows. */
const MAX_CAUSE_DEPTH = 4;

/**
 * One message for an error and its `cause` chain: the error's message, then
 * each cause's message that the text so far does not already contain, joined
 * with `": "` (the form pino's error serializer logs), so a message is never
 * repeated — `"model m of p failed (HTTP 400): bad request"`, never
 * `"…: bad request: bad request"` (docs/decisions/0011). Follows at most 4 causes;
 * causes that are not errors (no string `message`) end the chain.
 *
 * Troupe errors state what failed in their own words and chain the underlying
 * error as `cause` instead of pasting its message into theirs.
 *
 * @param error - an `Error` (or anything with a string `message`).
 * @returns the joined message; `""` when `error` has none.
 * @example
 * ```ts
 * messageWithCauses(new TroupeError("model_error", "model m failed", { cause: new Error("overloaded") }))
 * // "model m failed: overloaded"
 * ```
 */
export function messageWithCauses(error: {
  readonly message: string;
  readonly cause?: unknown;
}): string {
  let text = error.message;
  let current: unknown = error.cause;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && hasMessage(current); depth++) {
    const message = current.message.trim();
    if (message.length > 0 && !text.includes(message)) {
      // "Cannot reach NATS … TROUPE_NATS_URL): connect …", not "….: connect …".
      text = text.length === 0 ? message : `${text.replace(/\.$/, "")}: ${message}`;
    }
    current = current.cause;
  }
  return text;
}

function hasMessage(value: unknown): value is { message: string; cause?: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

function toJsonDetails(
  details: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (details === undefined) return undefined;
  try {
    const text = JSON.stringify(details, (_key, value: unknown) => {
      if (typeof value === "bigint") return value.toString();
      if (value instanceof Error) return value.message;
      return value;
    });
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function describe(value: unknown): string {
  switch (typeof value) {
    case "number":
    case "boolean":
    case "bigint":
      return `${typeof value} ${String(value)}`;
    case "undefined":
      return "undefined";
    case "object":
      return value === null ? "null" : "an object";
    default:
      return `a ${typeof value}`;
  }
}
