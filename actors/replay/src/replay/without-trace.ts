/** The fields the live host stamps on items for its own use, which a replay does not compare. */
const HOST_STAMPS = ["trace", "priority"] as const;

/**
 * Trace context and scheduling class are not part of what a replay compares
 * (docs/decisions/0036, 0057): the live host stamps the span context and the
 * class (`Troupe-Priority`) of each step on the outbox items and pending
 * effects it produces, a replay has neither, and the same journal must still
 * reproduce the same generations.
 *
 * @param items - pending effects or outbox items (stored records, or their JSON form in a history).
 * @returns the items without their `trace` and `priority` fields (the same array when none has one).
 */
export function withoutTrace<T>(items: readonly T[]): T[] {
  if (!items.some(hasStamp)) return items as T[];
  return items.map((item) => {
    if (!hasStamp(item)) return item;
    const rest = { ...(item as Record<string, unknown>) };
    for (const field of HOST_STAMPS) delete rest[field];
    return rest as T;
  });
}

function hasStamp(item: unknown): boolean {
  return typeof item === "object" && item !== null && HOST_STAMPS.some((field) => field in item);
}
