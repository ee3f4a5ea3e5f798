import type { ActorHostOptions } from "@troupe/runtime";

/** The logger type `ActorHost.start` takes (pino's), without importing pino here. */
export type HostLogger = NonNullable<ActorHostOptions["logger"]>;

/** One line a {@link capturingLogger} kept. */
export interface CapturedLogLine {
  readonly level: "warn" | "error" | "fatal";
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

/**
 * A logger for in-process hosts that keeps their warn, error and fatal lines
 * (pino's call shapes: `(fields, message)` or `(message)`) and drops the rest.
 *
 * @returns the logger and the lines it kept, oldest first.
 */
export function capturingLogger(): { logger: HostLogger; lines: CapturedLogLine[] } {
  const lines: CapturedLogLine[] = [];
  const keep =
    (level: CapturedLogLine["level"]) =>
    (first: unknown, second?: unknown): void => {
      if (typeof first === "string") lines.push({ level, message: first, fields: {} });
      else
        lines.push({
          level,
          message: typeof second === "string" ? second : "",
          fields: (first ?? {}) as Record<string, unknown>,
        });
    };
  const noop = (): void => undefined;
  const logger = {
    level: "warn",
    trace: noop,
    debug: noop,
    info: noop,
    warn: keep("warn"),
    error: keep("error"),
    fatal: keep("fatal"),
    silent: noop,
    child: () => logger,
    isLevelEnabled: (level: string) => ["warn", "error", "fatal"].includes(level),
  };
  return { logger: logger as unknown as HostLogger, lines };
}
