import {
  type ActorAddress,
  type HistoryGeneration,
  actorAddress,
  parseInboxSubject,
  parseShardInboxSubject,
} from "@troupe/protocol";

/**
 * The actor an outbox subject delivers to, when it is an inbox: a public inbox
 * `troupe.<kind>.<id>.in` or a shard inbox `_troupe.inbox.<shard>.<kind>.<id>`.
 *
 * @param subject - an outbox item's subject.
 * @returns the receiving actor, or undefined for any other subject (events,
 *   transcripts, dead letters) or an address that breaks the address rules.
 */
export function inboxTargetOf(subject: string): ActorAddress | undefined {
  try {
    return parseInboxSubject(subject);
  } catch {
    // not a public inbox; try the shard inbox form
  }
  try {
    const { kind, id } = parseShardInboxSubject(subject);
    return actorAddress(kind, id);
  } catch {
    return undefined;
  }
}

/**
 * The actors a replayed actor sent messages to, in order of first appearance
 * (generation by generation, outbox item by item), without duplicates: what
 * `exportActorHistory({ tree: true })` follows (docs/decisions/0021).
 *
 * @param generations - the actor's generations, oldest first.
 * @param kinds - only targets of these kinds are returned (the kinds that can be replayed).
 * @returns `kind/id` texts and their addresses.
 */
export function outboxTargets(
  generations: readonly Pick<HistoryGeneration, "outbox">[],
  kinds: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): { readonly text: string; readonly address: ActorAddress }[] {
  const seen = new Set<string>();
  const targets: { text: string; address: ActorAddress }[] = [];
  for (const generation of generations) {
    for (const item of generation.outbox) {
      const address = inboxTargetOf(item.subject);
      if (address === undefined || !kinds.has(address.kind)) continue;
      const text = `${address.kind}/${address.id}`;
      if (seen.has(text)) continue;
      seen.add(text);
      targets.push({ text, address });
    }
  }
  return targets;
}
