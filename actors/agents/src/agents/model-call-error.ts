import { TroupeError } from "@troupe/protocol";

/** What a {@link ModelCallError} knows about the failed call; all optional. */
export interface ModelCallErrorDetails {
  /** HTTP status of the provider's answer, when there was one. */
  readonly statusCode?: number;
  /** Provider id of the model (`openai.responses`, `troupe.scripted`, …). */
  readonly provider?: string;
  /** Model id (`gpt-4o-mini`, …). */
  readonly modelId?: string;
  /** `name` of the underlying error (`AI_APICallError`, `TypeError`, …). */
  readonly errorName?: string;
  /** Provider error type of an error sent inside the stream (`overloaded_error`, …). */
  readonly errorType?: string;
}

/**
 * A model call failed. Code `model_error`; `retryable` follows the provider's
 * classification (for `APICallError` and errors sent inside a 200 stream: 408,
 * 409, 429 and 5xx, or what the provider says), so the run machine retries it
 * with backoff or fails the run with `run.failed { code: "model_error" }`.
 * `details` holds {@link ModelCallErrorDetails}. The message says what failed
 * in Troupe's words; the provider error stays in `cause` (only its message
 * crosses the wire, appended once by `toWireError`).
 *
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-errors/ai-api-call-error
 */
export class ModelCallError extends TroupeError {
  /**
   * @param message - what failed, for humans.
   * @param retryable - whether another attempt may succeed.
   * @param details - status code, provider, model and error name when known.
   * @param cause - the underlying error.
   */
  constructor(
    message: string,
    retryable: boolean,
    details: ModelCallErrorDetails,
    cause?: unknown,
  ) {
    super("model_error", message, { retryable, cause, details: { ...details } });
    this.name = "ModelCallError";
  }
}
