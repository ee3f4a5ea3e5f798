/**
 * Trace context is not part of what a replay compares (docs/decisions/0036):
 * the live host stamps the span context of each step on the outbox items and
 * pending effects it produces, a replay has no spans, and the same journal must
 * still reproduce the same generations.
 *
 * @param items - pending effects or outbox items (stored records, or their JSON form in a history).
 * @returns the items without their `trace` field (the same array when none has one).
 */
export function withoutTrace<T>(items: readonly T[]): T[] {
  if (!items.some(hasTrace)) return items as T[];
  return items.map((item) => {
    if (!hasTrace(item)) return item;
    const { trace: _trace, ...rest } = item as Record<string, unknown>;
    return rest as T;
  });
}

function hasTrace(item: unknown): boolean {
  return typeof item === "object" && item !== null && "trace" in item;
}
