import { DEFAULT_SHARD_COUNT } from "../subjects/deployment-defaults.js";
import { shardOf } from "../subjects/shard-of.js";

/**
 * Redis key layout of one deployment: every key Troupe reads or writes is built
 * here and nowhere else. Every key starts with the deployment's prefix (default
 * `troupe`), so several deployments or test suites can share a server (and a
 * Redis ACL user can be limited to `~<prefix>:*`).
 *
 * Every key of one shard carries the shard's **hash tag** `{<shard>}`, so the
 * scripts that touch several of them (the commit: actor, history, lease, timers,
 * dirty set) run on a Redis Cluster, where a script's keys must share a hash
 * slot (decision 0031). An actor's keys are in its shard's slot:
 * `shardOf(address, shardCount)`. The spend keys share the tag
 * `{spend}`: one script reserves a model call against budgets of several
 * sessions and agents at once (decision 0041). Every other key is read or
 * written alone.
 *
 * | key | type | holds | written by |
 * | --- | --- | --- | --- |
 * | `<p>:deployment` | hash | `shardCount`, `keyLayout` (2; decision 0031) | runtime |
 * | `<p>:hosts` | sorted set | host ids scored by membership expiry (Unix ms, Redis clock) | runtime |
 * | `<p>:{<shard>}:lease` | hash + TTL | `owner`, `token`, `writes` (commits under this grant) | runtime |
 * | `<p>:{<shard>}:fence` | counter | last fencing token issued for the shard | runtime |
 * | `<p>:{<shard>}:watermark` | string | inbox sequence from which a new owner must read | runtime |
 * | `<p>:{<shard>}:timers` | sorted set | `<deadlineMs>\|<address>\|<timerId>` scored by deadline (ms) | runtime |
 * | `<p>:{<shard>}:dirty` | set | actors with running effects or an unconfirmed outbox | runtime |
 * | `<p>:refused` | hash | actor → JSON `{ hostId, storedVersion, hostVersion, refusals, waitingMessages, sinceMs, expiresAtMs }`: actors a host refuses for their machine version; removed when processed or handed over, stale after `expiresAtMs` | runtime |
 * | `<p>:{<shard>}:actor:<kind>/<id>` | string | `<gen>:<confirmed 0\|1>:<length>:`, the msgpack record (`length` bytes), then its outbox until confirmed | runtime |
 * | `<p>:{<shard>}:history:<kind>/<id>` | list + TTL | earlier generations without their outboxes, newest first; expires `historyRetentionMs` after the last commit | runtime |
 * | `<p>:effect-host-run:<kind>/<id>:<effectId>` | counter + TTL | the host run of one effect request | runtime |
 * | `<p>:model-stream-attempt:<sessionId>:<runId>.m<n>` | counter + TTL | the stream attempt of one model call (`run.delta`'s `attempt`) | agents |
 * | `<p>:model-call-slots:<agent>` | sorted set | the model calls holding one of the agent's `limits.maxConcurrentModelCalls` slots, `<address>/<effectId>#<hostRun>` scored by expiry (Unix ms, Redis clock; decision 0058) | agents |
 * | `<p>:idempotency:<idempotencyKey>` | hash + TTL | a tool call's idempotency record | agents |
 * | `<p>:tool-result:<ref>` | string + TTL | full result of a truncated tool result | agents |
 * | `<p>:{spend}:budget:<scope>:<scopeId>` | hash + TTL | one spend budget's `spentTokens`, `spentMicroUsd`, `reservedTokens`, `reservedMicroUsd`, `inputTokens`, `outputTokens`, `calls` | agents |
 * | `<p>:{spend}:reservation:<sessionId>/<effectId>` | hash + TTL | one model call's reservation: `state`, held amounts, its budget keys, warnings | agents |
 * | `<p>:{spend}:reservations` | sorted set | reservations still held, scored by expiry (Unix ms) | agents |
 * | `<p>:{spend}:usage:<sessionId>` | hash + TTL | one session's own spend and its agent and tree root | agents |
 * | `<p>:{spend}:tree:<rootSessionId>` | set + TTL | the sessions of one session tree that spent | agents |
 * | `<p>:demo:notes:<sessionId>` | hash | the demo agent's notes of one session | demo agent |
 * | `<p>:demo:outbox` | list | the demo agent's "sent" emails | demo agent |
 *
 * In key layout 1 the shard's keys had no hash tag
 * (`<p>:lease:<shard>`, `<p>:actor:<address>`, …); `troupe migrate redis-keys`
 * moves a stopped deployment to layout 2.
 *
 * The names follow the glossary of docs/design.md: "fence" is only the shard's
 * fencing-token counter, and each counter is named after the attempt it counts.
 */
export class RedisKeys {
  /** The key layout this class builds (the `<p>:deployment` hash's `keyLayout`). */
  static readonly LAYOUT = 2;

  /**
   * @param prefix - the deployment prefix (`[A-Za-z0-9_-]{1,32}`, default `troupe`).
   * @param shardCount - the deployment's shard count (default 64, the default of
   *   deployments), which places an actor's keys in its shard's hash slot. Give
   *   the deployment's real count (the `<p>:deployment` hash's `shardCount`) when
   *   reading actors of a deployment made with another.
   */
  constructor(
    readonly prefix: string,
    readonly shardCount: number = DEFAULT_SHARD_COUNT,
  ) {}

  /**
   * The hash tag part of every key of one shard, `<p>:{<shard>}`.
   *
   * @example new RedisKeys("troupe").shardTag(3) // "troupe:{3}"
   */
  shardTag(shard: number): string {
    return `${this.prefix}:{${shard}}`;
  }

  /** The shard an actor address (`kind/id`) belongs to under this layout's shard count. */
  shardOfAddress(address: string): number {
    const slash = address.indexOf("/");
    return shardOf(
      { kind: address.slice(0, Math.max(0, slash)), id: address.slice(slash + 1) },
      this.shardCount,
    );
  }

  deployment(): string {
    return `${this.prefix}:deployment`;
  }
  hosts(): string {
    return `${this.prefix}:hosts`;
  }
  lease(shard: number): string {
    return `${this.shardTag(shard)}:lease`;
  }
  /** The shard's fencing-token counter. */
  fence(shard: number): string {
    return `${this.shardTag(shard)}:fence`;
  }
  watermark(shard: number): string {
    return `${this.shardTag(shard)}:watermark`;
  }
  timers(shard: number): string {
    return `${this.shardTag(shard)}:timers`;
  }
  dirty(shard: number): string {
    return `${this.shardTag(shard)}:dirty`;
  }
  /** Actors refused for their machine version, by actor (docs/decisions/0022). */
  refusedActors(): string {
    return `${this.prefix}:refused`;
  }
  /**
   * An actor's latest generation, in its shard's hash slot.
   *
   * @param address - `kind/id`.
   * @param shard - the actor's shard; default `shardOfAddress(address)`.
   * @example new RedisKeys("troupe", 64).actor("session/demo-1") // "troupe:{<shard>}:actor:session/demo-1"
   */
  actor(address: string, shard: number = this.shardOfAddress(address)): string {
    return `${this.shardTag(shard)}:actor:${address}`;
  }
  /** An actor's earlier generations (see {@link RedisKeys.actor} for the parameters). */
  history(address: string, shard: number = this.shardOfAddress(address)): string {
    return `${this.shardTag(shard)}:history:${address}`;
  }
  /**
   * The keys of layout 1, which had no hash tag: for
   * `troupe migrate redis-keys` and the refusal of a host that finds them.
   */
  legacy() {
    const p = this.prefix;
    return {
      lease: (shard: number) => `${p}:lease:${shard}`,
      fence: (shard: number) => `${p}:fence:${shard}`,
      watermark: (shard: number) => `${p}:watermark:${shard}`,
      timers: (shard: number) => `${p}:timers:${shard}`,
      dirty: (shard: number) => `${p}:dirty:${shard}`,
      actorPattern: `${p}:actor:*`,
      historyPattern: `${p}:history:*`,
    };
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
   * The slots of an agent's concurrency limit on model calls (docs/decisions/0058):
   * a sorted set shared by every host, members the calls that hold a slot
   * (`<address>/<effectId>#<hostRun>`), scores the slots' expiry (Unix ms, Redis
   * clock). Emptied — and so deleted — as calls end.
   *
   * @param agent - the agent's name (a subagent's `<parent>--<subagent>`).
   * @example new RedisKeys("troupe").modelCallSlots("assistant") // "troupe:model-call-slots:assistant"
   */
  modelCallSlots(agent: string): string {
    return `${this.prefix}:model-call-slots:${agent}`;
  }
  /**
   * The record of one agent definition (docs/decisions/0055): its canonical JSON,
   * written once (`SET NX`) by the first host that serves it, without a TTL —
   * runs pinned to it may wait on an approval for days.
   *
   * @param agent - the agent's name (a subagent's `<parent>--<subagent>`).
   * @param hash - the record's SHA-256, 64 hex digits.
   * @example new RedisKeys("troupe").agentDefinition("assistant", "ab…") // "troupe:agent-definition:assistant:ab…"
   */
  agentDefinition(agent: string, hash: string): string {
    return `${this.prefix}:agent-definition:${agent}:${hash}`;
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
   * The prefix of every spend key: `<p>:{spend}`, one hash slot, so
   * a reservation and all its budgets are changed by one script (decision 0041).
   */
  spendTag(): string {
    return `${this.prefix}:{spend}`;
  }
  /**
   * One spend budget (docs/decisions/0041).
   *
   * @param scope - `run`, `session` or `agent_day`.
   * @param scopeId - `<sessionId>/<runId>`, the root session id, or `<agent>/<YYYY-MM-DD>`.
   * @example new RedisKeys("troupe").spendBudget("session", "s1") // "troupe:{spend}:budget:session:s1"
   */
  spendBudget(scope: string, scopeId: string): string {
    return `${this.spendTag()}:budget:${scope}:${scopeId}`;
  }
  /**
   * The reservation of one model call (docs/decisions/0041), keyed by its effect request.
   *
   * @param sessionId - the run actor's id (its session).
   * @param effectId - the model call's effect id, `<runId>.m<n>.a<retry>`.
   */
  spendReservation(sessionId: string, effectId: string): string {
    return `${this.spendTag()}:reservation:${sessionId}/${effectId}`;
  }
  /** The reservations still held, scored by expiry (Unix ms). */
  spendReservations(): string {
    return `${this.spendTag()}:reservations`;
  }
  /** One session's own spend (docs/decisions/0041). */
  spendUsage(sessionId: string): string {
    return `${this.spendTag()}:usage:${sessionId}`;
  }
  /** The sessions of one session tree that spent (docs/decisions/0041). */
  spendTree(rootSessionId: string): string {
    return `${this.spendTag()}:tree:${rootSessionId}`;
  }
  /**
   * The demo agent's notes of one session: field = note title, value = note
   * text (`save_note`; per session).
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
