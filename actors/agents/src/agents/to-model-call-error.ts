import { AISDKError, APICallError } from "@ai-sdk/provider";
import { TroupeError } from "@troupe/protocol";
import { RetryError } from "ai";
import { ModelCallError } from "./model-call-error.js";

/** Error codes of Node and undici that mean the connection failed or dropped. */
const NETWORK_ERROR_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/**
 * Classifies anything a model call threw or streamed as an error part:
 *
 * | error                                   | result                                                  |
 * | --------------------------------------- | ------------------------------------------------------- |
 * | a `TroupeError`                         | itself                                                  |
 * | `RetryError` (AI SDK retries exhausted) | its `lastError`, classified                             |
 * | `APICallError`                          | `ModelCallError`, retryable = `isRetryable`, with the status code |
 * | another AI SDK error (invalid prompt, unsupported feature, bad response data, …) | `ModelCallError`, not retryable |
 * | a network failure (`fetch failed`, `terminated`, `ECONNRESET`, …) | `ModelCallError`, retryable   |
 * | anything else                           | `ModelCallError`, not retryable                         |
 *
 * @param error - the thrown value or the `error` of an `error` stream part.
 * @param model - provider and model id, for the details.
 * @returns a Troupe error whose `retryable` the run machine acts on.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-errors
 */
export function toModelCallError(
  error: unknown,
  model: { readonly provider: string; readonly modelId: string },
): TroupeError {
  if (TroupeError.isInstance(error)) return error;
  if (RetryError.isInstance(error)) return toModelCallError(error.lastError, model);
  const where = { provider: model.provider, modelId: model.modelId };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode === undefined ? "" : ` (HTTP ${error.statusCode})`;
    return new ModelCallError(
      `model ${model.modelId} of ${model.provider} failed${status}: ${error.message}`,
      error.isRetryable,
      {
        ...where,
        errorName: error.name,
        ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      },
      error,
    );
  }
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const retryable = !AISDKError.isInstance(error) && isNetworkError(error);
  return new ModelCallError(
    `model ${model.modelId} of ${model.provider} failed: ${message}`,
    retryable,
    { ...where, errorName: name },
    error,
  );
}

function isNetworkError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) return true;
    if (current.name === "TypeError" && /fetch failed|terminated|network/i.test(current.message)) {
      return true;
    }
    current = current.cause;
  }
  return false;
}
