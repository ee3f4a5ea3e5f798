/**
 * Redis key layout of one deployment: every key Troupe reads or writes is built
 * here and nowhere else. Every key starts with the deployment's prefix (default
 * `troupe`), so several deployments or test suites can share a server.
 *
 * | key | type | holds | written by |
 * | --- | --- | --- | --- |
 * | `<p>:deployment` | hash | `shardCount` | runtime |
 * | `<p>:hosts` | sorted set | host ids scored by membership expiry (Unix ms, Redis clock) | runtime |
 * | `<p>:lease:<shard>` | hash + TTL | `owner`, `token` | runtime |
 * | `<p>:fence:<shard>` | counter | last fencing token issued for the shard | runtime |
 * | `<p>:watermark:<shard>` | string | inbox sequence from which a new owner must read (written when the shard is first owned) | runtime |
 * | `<p>:timers:<shard>` | sorted set | `<deadlineMs>\|<address>\|<timerId>` scored by deadline (ms) | runtime |
 * | `<p>:dirty:<shard>` | set | actors with running effects or an unconfirmed outbox | runtime |
 * | `<p>:refused` | hash | actor → JSON `{ hostId, storedVersion, hostVersion, refusals, waitingMessages, sinceMs, expiresAtMs }`: actors a host refuses for their machine version; removed when processed or handed over, stale after `expiresAtMs` (issue #14) | runtime |
 * | `<p>:actor:<kind>/<id>` | string | `<gen>:<confirmed 0\|1>:<length>:`, the msgpack record (`length` bytes), then its outbox until confirmed (issue #12) | runtime |
 * | `<p>:history:<kind>/<id>` | list + TTL | earlier generations without their outboxes, newest first; expires `historyRetentionMs` after the last commit | runtime |
 * | `<p>:effect-host-run:<kind>/<id>:<effectId>` | counter + TTL | the host run of one effect request | runtime |
 * | `<p>:model-stream-attempt:<sessionId>:<runId>.m<n>` | counter + TTL | the stream attempt of one model call (`run.delta`'s `attempt`) | agents |
 * | `<p>:idempotency:<idempotencyKey>` | hash + TTL | a tool call's idempotency record | agents |
 * | `<p>:tool-result:<ref>` | string + TTL | full result of a truncated tool result | agents |
 * | `<p>:demo:notes:<sessionId>` | hash | the demo agent's notes of one session | demo agent |
 * | `<p>:demo:outbox` | list | the demo agent's "sent" emails | demo agent |
 *
 * The names follow the glossary of docs/design.md: "fence" is only the shard's
 * fencing-token counter, and each counter is named after the attempt it counts.
 */
export class RedisKeys {
  /**
   * @param prefix - the deployment prefix (`[A-Za-z0-9_-]{1,32}`, default `troupe`).
   */
  constructor(readonly prefix: string) {}

  deployment(): string {
    return `${this.prefix}:deployment`;
  }
  hosts(): string {
    return `${this.prefix}:hosts`;
  }
  lease(shard: number): string {
    return `${this.prefix}:lease:${shard}`;
  }
  /** The shard's fencing-token counter. */
  fence(shard: number): string {
    return `${this.prefix}:fence:${shard}`;
  }
  watermark(shard: number): string {
    return `${this.prefix}:watermark:${shard}`;
  }
  timers(shard: number): string {
    return `${this.prefix}:timers:${shard}`;
  }
  dirty(shard: number): string {
    return `${this.prefix}:dirty:${shard}`;
  }
  /** Actors refused for their machine version, by actor (issue #14). */
  refusedActors(): string {
    return `${this.prefix}:refused`;
  }
  actor(address: string): string {
    return `${this.prefix}:actor:${address}`;
  }
  history(address: string): string {
    return `${this.prefix}:history:${address}`;
  }
  /**
   * Counter of the host runs of one effect request (its *host run* number, 1 on
   * the first run, higher after a crash or hand-over).
   *
   * @param address - the requesting actor, `kind/id`.
   * @param effectId - the request's id, unique per actor.
   */
  effectRun(address: string, effectId: string): string {
    return `${this.prefix}:effect-host-run:${address}:${effectId}`;
  }
  /**
   * Counter of the stream attempts of one model call: grows with every stream,
   * across the run's retries and hosts' re-runs, so clients drop superseded
   * text (`run.delta`'s `attempt`).
   *
   * @param sessionId - the session whose run makes the call.
   * @param modelCallId - `<runId>.m<modelCallIndex>`.
   */
  modelStreamAttempt(sessionId: string, modelCallId: string): string {
    return `${this.prefix}:model-stream-attempt:${sessionId}:${modelCallId}`;
  }
  /**
   * A tool call's idempotency record: a hash with `state`, `attempts`,
   * `effectClass`, `result` (JSON), `createdAtMs`, `startedAtMs`,
   * `completedAtMs` and a TTL.
   *
   * @param idempotencyKey - `<sessionId>/<runId>/<toolCallId>`.
   * @example new RedisKeys("troupe").idempotencyRecord("s1/r1/c1") // "troupe:idempotency:s1/r1/c1"
   */
  idempotencyRecord(idempotencyKey: string): string {
    return `${this.prefix}:idempotency:${idempotencyKey}`;
  }
  /**
   * Full result (UTF-8 string with a TTL) of a tool call whose result reached the
   * model truncated. The reference is the call's idempotency key.
   *
   * @example new RedisKeys("troupe").toolResult("s1/r1/c1") // "troupe:tool-result:s1/r1/c1"
   */
  toolResult(ref: string): string {
    return `${this.prefix}:tool-result:${ref}`;
  }
  /**
   * The demo agent's notes of one session: field = note title, value = note
   * text (`save_note`; per session since issue #13).
   *
   * @example new RedisKeys("troupe").demoNotes("demo-1") // "troupe:demo:notes:demo-1"
   */
  demoNotes(sessionId: string): string {
    return `${this.prefix}:demo:notes:${sessionId}`;
  }
  /** The demo agent's "sent" emails, one JSON record per entry (`send_email`). */
  demoOutbox(): string {
    return `${this.prefix}:demo:outbox`;
  }
}
