import { inspect } from "node:util";
import type { DiagLogger } from "@opentelemetry/api";

/**
 * A diag logger for the OpenTelemetry SDK that writes its warnings and errors
 * — an export to a collector that cannot be reached, a bad setting — each
 * distinct one once, as a `troupe: OpenTelemetry …` line (with no
 * diag logger the SDK says nothing, and traces go nowhere unnoticed). Info
 * and debug messages are dropped; `OTEL_LOG_LEVEL` gives the SDK's own
 * console logger instead.
 *
 * @param write - where a line goes (default: standard error, so `--json`
 *   output on standard output stays one document).
 * @param limit - most distinct lines written, in all (default 20).
 * @returns the logger, for `diag.setLogger`.
 */
export function onceDiagLogger(
  write: (line: string) => void = (line) => process.stderr.write(line),
  limit = 20,
): DiagLogger {
  const seen = new Set<string>();
  const line =
    (level: string) =>
    (message: string, ...args: unknown[]): void => {
      const text = [message, ...args.map(describe)].join(" ").replaceAll("\n", " ");
      const key = text.slice(0, 80);
      if (seen.has(key) || seen.size >= limit) return;
      seen.add(key);
      write(`troupe: OpenTelemetry ${level}: ${text.slice(0, 500)}\n`);
    };
  const ignore = () => undefined;
  return {
    error: line("error"),
    warn: line("warning"),
    info: ignore,
    debug: ignore,
    verbose: ignore,
  };
}

function describe(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.message;
  return inspect(value, { depth: 2, breakLength: Number.POSITIVE_INFINITY });
}
