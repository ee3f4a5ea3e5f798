/** pino's level numbers, by name. */
const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

/** Fields shown in their own place, or left out (the same for every line of a host). */
const PLACED_FIELDS = new Set([
  "level",
  "time",
  "pid",
  "hostname",
  "hostId",
  "msg",
  "actor",
  "effect",
  "error",
  "err",
]);

/**
 * Turns one line a `troupe host` wrote (its pino JSON log) into readable
 * lines for the `troupe dev` terminal: `<level> <actor> <effect>:
 * <message> — <code>: <error message>` and the other scalar fields as
 * `key=value`; a stack (`err.stack`, which hosts log for expected errors only
 * at debug level) follows on indented lines. A line that is not a pino record
 * is returned as it is. Pure.
 *
 * @param line - one line of the host's stdout or stderr.
 * @returns one line, plus one per stack line.
 * @example
 * formatHostLogLine('{"level":40,"actor":"run/f1","effect":"model.call","error":{"code":"model_error","message":"HTTP 400"},"msg":"effect failed"}')
 * // ["warn run/f1 model.call: effect failed — model_error: HTTP 400"]
 */
export function formatHostLogLine(line: string): string[] {
  const record = parseRecord(line);
  if (record === undefined) return [line];
  const level = LEVEL_NAMES[record["level"] as number] ?? String(record["level"]);
  const where = [record["actor"], record["effect"]].filter(
    (value): value is string => typeof value === "string",
  );
  const error = errorText(record["error"]) ?? errorText(record["err"]);
  const extra = Object.entries(record)
    .filter(([key, value]) => !PLACED_FIELDS.has(key) && isScalar(value))
    .map(([key, value]) => `${key}=${String(value)}`);
  const head =
    `${level} ${where.length === 0 ? "" : `${where.join(" ")}: `}${typeof record["msg"] === "string" ? record["msg"] : JSON.stringify(record["msg"])}` +
    (error === undefined ? "" : ` — ${error}`) +
    (extra.length === 0 ? "" : ` (${extra.join(", ")})`);
  const err = record["err"];
  const stack =
    typeof err === "object" &&
    err !== null &&
    typeof (err as { stack?: unknown }).stack === "string"
      ? (err as { stack: string }).stack.split("\n").map((stackLine) => `    ${stackLine}`)
      : [];
  return [head, ...stack];
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const record = parsed as Record<string, unknown>;
    return typeof record["level"] === "number" && "msg" in record ? record : undefined;
  } catch {
    return undefined;
  }
}

function errorText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { code, message } = value as { code?: unknown; message?: unknown };
  if (typeof message !== "string") return undefined;
  return typeof code === "string" ? `${code}: ${message}` : message;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}
