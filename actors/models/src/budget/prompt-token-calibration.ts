/** Weight of the newest observation in the running ratio (exponential moving average). */
const SMOOTHING = 0.2;
/** Most the estimate is ever scaled up by. */
export const MAX_CALIBRATION_FACTOR = 4;
/** Prompts estimated below this many tokens are not observed (fixed overheads dominate). */
const MIN_OBSERVED_TOKENS = 64;

/**
 * Calibrates the prompt-token estimate of spend reservations against the usage
 * providers report (docs/capabilities/spend-limits.md). Per model id, it keeps
 * a running ratio (exponential moving average, weight 0.2 for the newest call)
 * of the input tokens a completed call reported to the tokens
 * `estimatePromptTokens` estimated for it; a reservation's estimate is
 * multiplied by that ratio when it is above 1 (capped at
 * {@link MAX_CALIBRATION_FACTOR}), so a model whose tokenizer counts more than the
 * per-script estimate (code, some scripts) is reserved for what it really
 * costs. It only ever raises the estimate: an overcount stays as it is, which
 * keeps reservations conservative.
 *
 * Per host and in memory: a new host starts from the plain estimate. Only
 * spend reservations use it; compaction decisions keep the plain estimate,
 * which must be the same when an effect is re-run on another host.
 */
export class PromptTokenCalibration {
  readonly #ratios = new Map<string, number>();

  /**
   * Records one completed call.
   *
   * @param modelId - the model that answered.
   * @param estimatedTokens - the plain estimate of its prompt.
   * @param reportedTokens - the input tokens the provider reported (0 = none reported: ignored).
   */
  observe(modelId: string, estimatedTokens: number, reportedTokens: number): void {
    if (estimatedTokens < MIN_OBSERVED_TOKENS || reportedTokens <= 0) return;
    const ratio = reportedTokens / estimatedTokens;
    const previous = this.#ratios.get(modelId);
    this.#ratios.set(
      modelId,
      previous === undefined ? ratio : previous + SMOOTHING * (ratio - previous),
    );
  }

  /**
   * The factor the estimate of `modelId` is scaled by: 1 until a call of it
   * reported more than estimated, at most {@link MAX_CALIBRATION_FACTOR}.
   */
  factor(modelId: string): number {
    const ratio = this.#ratios.get(modelId) ?? 1;
    return Math.min(MAX_CALIBRATION_FACTOR, Math.max(1, ratio));
  }

  /**
   * The calibrated estimate.
   *
   * @param modelId - the model called.
   * @param estimatedTokens - the plain estimate (whole tokens).
   * @returns whole tokens, ≥ `estimatedTokens`.
   */
  adjust(modelId: string, estimatedTokens: number): number {
    return Math.ceil(estimatedTokens * this.factor(modelId));
  }
}
