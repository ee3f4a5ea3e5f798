import { TroupeError } from "@troupe/protocol";

/** Which bound of a model call ran out (docs/decisions/0011). */
export type ModelTimeoutKind = "idle" | "call";

/** What a {@link ModelTimeoutError} knows about the call it ended. */
export interface ModelTimeoutErrorDetails {
  /** `idle`: no model output for `timeoutMs`; `call`: the whole call took longer than `timeoutMs`. */
  readonly timeout: ModelTimeoutKind;
  /** The bound that ran out, in ms (the agent's `limits.modelIdleTimeoutMs` or `limits.modelCallTimeoutMs`). */
  readonly timeoutMs: number;
  /** Provider id of the model. */
  readonly provider: string;
  /** Model id. */
  readonly modelId: string;
}

/**
 * A model call ran out of time: its stream sent no output (text, reasoning or
 * tool-call arguments — SSE keep-alive comments and other non-output parts do
 * not count) for the agent's idle timeout, or the whole call took longer than
 * its call timeout. The HTTP request was aborted. Code `model_timeout`,
 * retryable: the run machine retries the call with backoff (3 tries in all) and
 * then fails the run with `run.failed { code: "model_timeout" }`. `details`
 * holds {@link ModelTimeoutErrorDetails}.
 *
 * @see docs/decisions/0011-model-calls-are-bounded.md
 */
export class ModelTimeoutError extends TroupeError {
  /**
   * @param details - which bound ran out, its length in ms, provider and model.
   */
  constructor(details: ModelTimeoutErrorDetails) {
    const what =
      details.timeout === "idle"
        ? `sent no output for ${details.timeoutMs} ms (idle timeout)`
        : `did not finish within ${details.timeoutMs} ms (call timeout)`;
    super("model_timeout", `model ${details.modelId} of ${details.provider} ${what}`, {
      retryable: true,
      details: { ...details },
    });
    this.name = "ModelTimeoutError";
  }
}
