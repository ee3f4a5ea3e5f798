import { type BudgetWarning, TroupeError, type Usage } from "@troupe/protocol";
import type { BudgetAmount, BudgetSettings } from "./budget-options.js";
import { BudgetExceededError } from "./budget-exceeded-error.js";
import { costMicroUsd, priceOf, type PricedModel } from "./model-pricing.js";
import { PromptTokenCalibration } from "./prompt-token-calibration.js";
import type { SpendBudget, SpendLedger } from "./spend-ledger.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long each kind of spend record is kept after its last change, in ms. */
export const SPEND_TTL_MS = {
  run: 7 * DAY_MS,
  session: 30 * DAY_MS,
  agent_day: 3 * DAY_MS,
  usage: 30 * DAY_MS,
} as const;
/** Added to the agent's `modelCallTimeoutMs` before an unsettled reservation expires, in ms. */
export const RESERVATION_GRACE_MS = 60_000;

/** The parts of an agent definition a spend guard reads (`AgentDefinition` has them). */
export interface BudgetedAgent {
  readonly name: string;
  readonly limits: { readonly modelCallTimeoutMs: number; readonly budget?: BudgetSettings };
}

/** One model call about to be made. */
export interface SpendCall {
  /** The session making the call (the run actor's id). */
  readonly sessionId: string;
  readonly runId: string;
  /** The `model.call` effect id: the reservation's key. */
  readonly effectId: string;
  /** The root of the session tree: the delegating session of a subagent, else `sessionId`. */
  readonly rootSessionId: string;
  /**
   * A subagent's call: the delegating run of `rootSessionId`, whose `run`
   * budget (`<rootSessionId>/<parentRunId>`, the root agent's `run` limit) the
   * call counts against too. Undefined for a top-level call, and for a
   * subagent session created before the field existed (no parent-run budget).
   */
  readonly parentRunId?: string | undefined;
  /** The agent making the call. */
  readonly agent: BudgetedAgent;
  /** The agent of the tree's root session (the same as `agent` for a top-level session). */
  readonly rootAgent: BudgetedAgent;
  readonly model: PricedModel;
  /**
   * Estimated input tokens of the prompt (instructions and messages;
   * `estimatePromptTokens`).
   */
  readonly promptTokens: number;
}

/** A reservation held for one model call; settle or release it when the call ends. */
export interface SpendHold {
  /** The output bound to send to the model: the reservation's worst case assumes it. */
  readonly maxOutputTokens: number;
  /**
   * The prompt's input tokens that the reservation assumed: `SpendCall.promptTokens`,
   * calibrated (see `PromptTokenCalibration`).
   */
  readonly promptTokens: number;
  /**
   * Counts the call's actual usage instead of its reservation, priced as the
   * model that answered (docs/capabilities/spend-limits.md): `answeredBy`, the
   * model id the provider reported (`response-metadata`, e.g.
   * `"gpt-4o-2024-08-06"` for a request of `gpt-4o`, or the model a router
   * picked), has its own price when the pricing table has one; otherwise the
   * requested model's price applies.
   *
   * @param usage - tokens the call used (input, output).
   * @param answeredBy - the answering model's id, when the provider said.
   * @param reported - whether `usage` is what the provider reported for a
   *   completed call (it then calibrates later estimates), not an estimate.
   * @returns the budgets whose threshold this call crossed (for `budget.warning`).
   */
  settle(usage: Usage, answeredBy?: string, reported?: boolean): Promise<readonly BudgetWarning[]>;
  /** Gives the reservation back (the call failed before it used the model). */
  release(): Promise<void>;
}

/**
 * The calendar day of a time in a time zone, `YYYY-MM-DD`.
 *
 * @param nowMs - Unix ms.
 * @param timeZone - IANA time zone, e.g. `"UTC"`, `"Europe/Paris"`.
 * @example calendarDay(Date.UTC(2026, 11, 1, 23, 30), "Europe/Paris") // "2026-12-02"
 */
export function calendarDay(nowMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(nowMs));
}

/**
 * Reserves and settles model calls against their budgets (docs/decisions/0041):
 * `run` (the call's run; limits of the calling agent, else of the root agent),
 * `session` (the tree's root session) and `agent_day` (the root agent on the
 * calendar day in its `timeZone`), both with the root agent's limits, and for a
 * subagent's call (`parentRunId` set) a second `run` budget: the delegating
 * run, with the root agent's `run` limit — so a subagent's spend counts against
 * its parent's budgets. A call reserves its worst case: estimated input tokens
 * + `maxOutputTokens`, priced by the pricing table (root agent's `pricing`,
 * then the calling agent's, then `DEFAULT_MODEL_PRICING`; a model without a
 * price is not limited by cost).
 */
export class SpendGuard {
  readonly #now: () => number;
  readonly #calibration: PromptTokenCalibration;

  /**
   * @param ledger - where reservations and spend are kept (`RedisSpendLedger` on a host).
   * @param options - `now`: the clock for calendar days, Unix ms (default `Date.now`); a
   *   reservation's expiry is the ledger's own clock (`SpendReservationRequest.holdMs`).
   *   `calibration`: the per-model calibration of prompt estimates (default: a new one).
   */
  constructor(
    private readonly ledger: SpendLedger,
    options: { readonly now?: () => number; readonly calibration?: PromptTokenCalibration } = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#calibration = options.calibration ?? new PromptTokenCalibration();
  }

  /**
   * Reserves the call's worst case against its budgets.
   *
   * @returns the hold to settle, or undefined when neither the calling agent nor
   *   the root agent has `limits.budget` (nothing is reserved or recorded).
   * @throws BudgetExceededError when a budget cannot hold the worst case (nothing is held);
   *   TroupeError `unavailable` (retryable) when the ledger's store is unreachable (so does `settle`).
   */
  async reserve(call: SpendCall): Promise<SpendHold | undefined> {
    const own = call.agent.limits.budget;
    const root = call.rootAgent.limits.budget;
    const settings = root ?? own;
    if (settings === undefined) return undefined;
    const nowMs = this.#now();
    const maxOutputTokens = own?.maxOutputTokens ?? settings.maxOutputTokens;
    const pricing = { ...own?.pricing, ...root?.pricing };
    const price = priceOf(call.model, pricing);
    const priceOfAnswer = (answeredBy: string | undefined) =>
      answeredBy === undefined || answeredBy === call.model.modelId
        ? price
        : (priceOf({ spec: undefined, modelId: answeredBy }, pricing) ?? price);
    const budgets = budgetsOf(
      call,
      own?.run ?? root?.run,
      root,
      calendarDay(nowMs, settings.timeZone),
    );
    // Calibrated against what providers reported for this model.
    const inputTokens = this.#calibration.adjust(call.model.modelId, call.promptTokens);
    const result = await unavailableIfThrown(
      this.ledger.reserve({
        sessionId: call.sessionId,
        effectId: call.effectId,
        budgets,
        tokens: inputTokens + maxOutputTokens,
        microUsd: price === undefined ? 0 : costMicroUsd(price, inputTokens, maxOutputTokens),
        holdMs: call.agent.limits.modelCallTimeoutMs + RESERVATION_GRACE_MS,
      }),
    );
    if (result.kind === "refused") {
      const { budget, unit, spent, reserved, limit, needed } = result;
      throw new BudgetExceededError({
        scope: budget.scope,
        scopeId: budget.scopeId,
        unit,
        spent,
        reserved,
        limit,
        needed,
      });
    }
    const settled = result.kind === "settled" ? result.warnings : undefined;
    return {
      maxOutputTokens,
      promptTokens: inputTokens,
      settle: async (usage, answeredBy, reported) => {
        if (reported === true) {
          this.#calibration.observe(call.model.modelId, call.promptTokens, usage.inputTokens);
        }
        if (settled !== undefined) return settled;
        const answerPrice = priceOfAnswer(answeredBy);
        return unavailableIfThrown(
          this.ledger.settle({
            sessionId: call.sessionId,
            effectId: call.effectId,
            budgets,
            inputTokens: usage.inputTokens,
            outputTokens: usage.outputTokens,
            microUsd:
              answerPrice === undefined
                ? 0
                : costMicroUsd(answerPrice, usage.inputTokens, usage.outputTokens),
            warnAt: settings.warnAt,
            agent: call.agent.name,
            rootSessionId: call.rootSessionId,
            usageTtlMs: SPEND_TTL_MS.usage,
          }),
        );
      },
      release: () =>
        settled === undefined
          ? this.ledger.release(call.sessionId, call.effectId)
          : Promise.resolve(),
    };
  }
}

/**
 * The ledger's result, or a retryable `unavailable` TroupeError for an error of
 * its store (Redis unreachable): the run retries the model call.
 */
async function unavailableIfThrown<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if (TroupeError.isInstance(error)) throw error;
    throw new TroupeError("unavailable", "the spend ledger could not be reached", {
      retryable: true,
      cause: error,
    });
  }
}

/**
 * The budgets of a call, with their limits (micro-dollars for cost): its run,
 * the session tree, the root agent's day, and for a subagent's call whose
 * delegating run is known, that parent run (the root agent's `run` limit).
 */
function budgetsOf(
  call: SpendCall,
  run: BudgetAmount | undefined,
  root: BudgetSettings | undefined,
  day: string,
): SpendBudget[] {
  const limits = (amount: BudgetAmount | undefined) => ({
    tokens: amount?.tokens,
    microUsd: amount?.costUsd === undefined ? undefined : Math.round(amount.costUsd * 1e6),
  });
  return [
    {
      scope: "run",
      scopeId: `${call.sessionId}/${call.runId}`,
      ...limits(run),
      ttlMs: SPEND_TTL_MS.run,
    },
    {
      scope: "session",
      scopeId: call.rootSessionId,
      ...limits(root?.session),
      ttlMs: SPEND_TTL_MS.session,
    },
    {
      scope: "agent_day",
      scopeId: `${call.rootAgent.name}/${day}`,
      ...limits(root?.agentDay),
      ttlMs: SPEND_TTL_MS.agent_day,
    },
    ...(call.parentRunId === undefined || call.rootSessionId === call.sessionId
      ? []
      : [
          {
            scope: "run" as const,
            scopeId: `${call.rootSessionId}/${call.parentRunId}`,
            ...limits(root?.run),
            ttlMs: SPEND_TTL_MS.run,
          },
        ]),
  ];
}
