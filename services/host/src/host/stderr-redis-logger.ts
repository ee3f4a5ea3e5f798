import type { RedisConnectionLogger } from "@troupe/runtime";

/**
 * A {@link RedisConnectionLogger} writing one line per report to stderr, for the
 * Redis clients the CLI creates outside the host's logger (the tools' client of
 * `troupe host`, the admin commands' client). Decision 0010.
 *
 * @param name - what the line starts with, e.g. `troupe host h1`.
 * @returns the logger.
 * @example
 * watchRedisConnection(redis, stderrRedisLogger("troupe"), "tools");
 */
export function stderrRedisLogger(name: string): RedisConnectionLogger {
  const line = (details: Record<string, unknown>, message: string) => {
    const { err, ...rest } = details;
    const reason = err instanceof Error ? `: ${err.message}` : "";
    const fields = Object.entries(rest)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(" ");
    process.stderr.write(`${name}: warn ${message}${reason} (${fields})\n`);
  };
  return { warn: line };
}
