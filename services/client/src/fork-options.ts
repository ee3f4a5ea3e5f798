import { actorIdSchema, sessionForkSchema, type SessionFork } from "@troupe/protocol";

/**
 * Options of `TroupeClient.fork` (docs/capabilities/fork.md).
 *
 * Shape: `{ to?: string, atSequence?: number (whole, 1+), atRunId?: string }`;
 * at most one of `atSequence` / `atRunId`.
 */
export interface ForkOptions {
  /** The new session's id (NATS-token safe); default `<from>-fork-<random 8 hex>`. */
  readonly to?: string;
  /** Fork at this events-stream sequence of the source (what `troupe tail --sequence` shows). */
  readonly atSequence?: number;
  /** Fork at the end of this run of the source (`r<n>`). */
  readonly atRunId?: string;
}

/**
 * The target session and the `session.fork` payload for a fork of `from`.
 *
 * @param from - the source session.
 * @param options - see {@link ForkOptions}.
 * @returns `{ to, payload }`.
 * @throws ZodError (from the protocol's schemas) for an invalid id or both points at once.
 */
export function forkCommand(
  from: string,
  options: ForkOptions,
): { readonly to: string; readonly payload: SessionFork } {
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
  const to = actorIdSchema.parse(options.to ?? `${from}-fork-${suffix}`);
  const payload = sessionForkSchema.parse({
    from,
    ...(options.atSequence === undefined ? {} : { atSequence: options.atSequence }),
    ...(options.atRunId === undefined ? {} : { atRunId: options.atRunId }),
  });
  return { to, payload };
}
