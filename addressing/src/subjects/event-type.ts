import { z } from "zod";

/**
 * What an event type looks like: lowercase tokens of `[a-z0-9_]` separated by
 * dots, `entity.action` by convention (`run.completed`,
 * `tool.approval_requested`). Each dot-separated part becomes one subject token.
 */
export const EVENT_TYPE_PATTERN = /^[a-z0-9_]+(?:\.[a-z0-9_]+)*$/;

/**
 * Whether `eventType` matches {@link EVENT_TYPE_PATTERN}.
 *
 * @param eventType - candidate event type.
 * @returns `true` for e.g. `"run.completed"`, `false` for `"Run.Completed"` or `"run..x"`.
 */
export function isValidEventType(eventType: string): boolean {
  return typeof eventType === "string" && EVENT_TYPE_PATTERN.test(eventType);
}

/** An event type: see {@link EVENT_TYPE_PATTERN}. */
export const eventTypeSchema = z.string().regex(EVENT_TYPE_PATTERN, {
  error: 'Expected dot-separated lowercase tokens of a-z, 0-9 and "_", e.g. "run.completed".',
});

/**
 * Throws unless `eventType` matches {@link EVENT_TYPE_PATTERN}.
 *
 * @param eventType - candidate event type.
 * @throws RangeError naming the rule.
 */
export function assertEventType(eventType: string): void {
  if (!isValidEventType(eventType)) {
    throw new RangeError(
      `Invalid event type ${JSON.stringify(String(eventType))}: expected dot-separated ` +
        `lowercase tokens of a-z, 0-9 and "_", e.g. "run.completed".`,
    );
  }
}
