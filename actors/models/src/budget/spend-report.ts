import type { BudgetScope } from "@troupe/protocol";
import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "@troupe/runtime";

/** Spend of one budget or one session, as `troupe usage` reports it. */
export interface SpendTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input + output tokens. */
  readonly tokens: number;
  /** US dollars, to the micro-dollar (0 for models without a price). */
  readonly costUsd: number;
  /** Model calls settled. */
  readonly calls: number;
}

/** One session's own spend: the agent that spent it and the tree it belongs to. */
export interface SessionSpend extends SpendTotals {
  readonly sessionId: string;
  readonly agent: string;
  readonly rootSessionId: string;
}

/** One budget's record: its settled spend and what reservations hold now. */
export interface BudgetSpend extends SpendTotals {
  readonly scope: BudgetScope;
  readonly scopeId: string;
  /** Tokens held by reservations of calls still running. */
  readonly reservedTokens: number;
  /** Dollars held by reservations of calls still running. */
  readonly reservedUsd: number;
}

/** A session tree: its root's budget and every session's own spend, root first. */
export interface TreeSpend {
  readonly rootSessionId: string;
  readonly total: BudgetSpend;
  readonly sessions: readonly SessionSpend[];
}

const count = (hash: Record<string, string>, field: string) => Number(hash[field] ?? 0);

function totalsOf(
  hash: Record<string, string>,
  tokensField: string,
  microField: string,
): SpendTotals {
  const inputTokens = count(hash, "inputTokens");
  const outputTokens = count(hash, "outputTokens");
  return {
    inputTokens,
    outputTokens,
    tokens: tokensField === "" ? inputTokens + outputTokens : count(hash, tokensField),
    costUsd: count(hash, microField) / 1e6,
    calls: count(hash, "calls"),
  };
}

/**
 * Reads the spend records `troupe usage` reports
 * (docs/capabilities/spend-limits.md): what model calls of agents with
 * `limits.budget` settled, kept in Redis by `RedisSpendLedger`.
 */
export class SpendReport {
  /**
   * @param redis - connection.
   * @param keys - the deployment's key layout.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * One session's own spend (a subagent's session has its own record).
   *
   * @returns undefined when the session has spent nothing recorded.
   */
  async session(sessionId: string): Promise<SessionSpend | undefined> {
    const hash = await this.redis.hgetall(this.keys.spendUsage(sessionId));
    if (hash["agent"] === undefined) return undefined;
    return {
      sessionId,
      agent: hash["agent"],
      rootSessionId: hash["rootSessionId"] ?? sessionId,
      ...totalsOf(hash, "", "microUsd"),
    };
  }

  /**
   * One budget's record (spend and reservations held).
   *
   * @param scope - `run`, `session` or `agent_day`.
   * @param scopeId - `<sessionId>/<runId>`, the root session id, or `<agent>/<YYYY-MM-DD>`.
   */
  async budget(scope: BudgetScope, scopeId: string): Promise<BudgetSpend> {
    const hash = await this.redis.hgetall(this.keys.spendBudget(scope, scopeId));
    return {
      scope,
      scopeId,
      ...totalsOf(hash, "spentTokens", "spentMicroUsd"),
      reservedTokens: count(hash, "reservedTokens"),
      reservedUsd: count(hash, "reservedMicroUsd") / 1e6,
    };
  }

  /**
   * A session tree: the root's budget record and each session's own spend,
   * attributed per subagent (root first, then by session id).
   *
   * @param sessionId - the root session, or any session of the tree (its root is looked up).
   */
  async tree(sessionId: string): Promise<TreeSpend> {
    const rootSessionId = (await this.session(sessionId))?.rootSessionId ?? sessionId;
    const members = await this.redis.smembers(this.keys.spendTree(rootSessionId));
    const sessions = (await Promise.all(members.map((member) => this.session(member))))
      .filter((session): session is SessionSpend => session !== undefined)
      .sort((a, b) =>
        a.sessionId === rootSessionId
          ? -1
          : b.sessionId === rootSessionId
            ? 1
            : a.sessionId.localeCompare(b.sessionId),
      );
    return { rootSessionId, total: await this.budget("session", rootSessionId), sessions };
  }
}
