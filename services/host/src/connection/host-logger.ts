import { redactUrl } from "@troupe/client";
import { pino, type Logger } from "pino";
import { traceLogFields } from "../telemetry/trace-log-fields.js";

/** Field names whose values are secrets, censored to `***` at any depth up to four. */
const SECRET_FIELDS = ["password", "pass", "token", "sentinelPassword", "seed"] as const;
/** Field names holding URLs (or a host's `nats`/`redis` option): their password is censored. */
const URL_FIELDS = ["url", "natsUrl", "redisUrl", "nats", "redis"] as const;

/**
 * Paths pino censors in every log record of a host (docs/decisions/0033): passwords,
 * tokens and seeds of option objects (`password`, `credentials.pass`,
 * `options.redis.sentinelPassword`, …, to a depth of four) become `***`; URLs
 * (`url`, `natsUrl`, `redisUrl`, and `nats` / `redis` when strings) keep
 * everything but their password.
 */
export const REDACTED_LOG_PATHS: readonly string[] = [...SECRET_FIELDS, ...URL_FIELDS].flatMap(
  (field) => ["", "*.", "*.*.", "*.*.*."].map((parents) => `${parents}${field}`),
);

/**
 * The pino logger `troupe host` gives its `ActorHost`: level from
 * `TROUPE_LOG_LEVEL` (default `info`), secrets redacted (see
 * {@link REDACTED_LOG_PATHS}), and `trace_id` / `span_id` of the active span
 * on every record written while one is.
 *
 * @param destination - where lines go; default stdout (pino's default).
 * @returns the logger.
 */
export function createHostLogger(destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: process.env.TROUPE_LOG_LEVEL ?? "info",
    redact: { paths: [...REDACTED_LOG_PATHS], censor: censorSecret },
    mixin: traceLogFields,
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** `***` for a secret; a URL-ish string keeps all but its password; objects stay (their fields are checked). */
function censorSecret(value: unknown, path: string[]): unknown {
  const key = path[path.length - 1] ?? "";
  if (/url$/i.test(key) || key === "nats" || key === "redis") {
    return typeof value === "string" ? redactUrl(value) : value;
  }
  return "***";
}
