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
 * - a `TroupeError` keeps its `code`, `message`, `retryable` and `details`
 *   (details are reduced to JSON data: bigints become strings, errors inside them
 *   become their message, functions and cycles are dropped);
 * - a value that already is a `WireError` is returned as parsed;
 * - any other `Error` becomes `{ code: "internal", message: error.message, retryable: false }`;
 * - anything else becomes an `internal` error describing the value.
 *
 * The stack and `cause` never leave the process.
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
      message: error.message,
      retryable: error.retryable,
      ...(details === undefined ? {} : { details }),
    };
  }
  const alreadyWire = wireErrorSchema.safeParse(error);
  if (alreadyWire.success && !(error instanceof Error)) return alreadyWire.data;
  if (error instanceof Error) {
    return { code: "internal", message: error.message || error.name, retryable: false };
  }
  if (typeof error === "string") return { code: "internal", message: error, retryable: false };
  return {
    code: "internal",
    message: `A non-error value was thrown: ${describe(error)}.`,
    retryable: false,
  };
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
