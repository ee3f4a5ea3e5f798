import { AISDKError, APICallError } from "@ai-sdk/provider";
import { TroupeError } from "@troupe/protocol";
import { RetryError, StreamProviderError } from "ai";
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
 * The HTTP status that an error `type` (or `code`) sent inside a 200 stream
 * stands for, for the providers' documented types: Anthropic's
 * (`overloaded_error` is its 529) and OpenAI's. Used when the error carries no
 * status of its own.
 */
const STATUS_OF_ERROR_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  api_error: 500,
  server_error: 500,
  internal_error: 500,
  internal_server_error: 500,
  service_unavailable: 503,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * Classifies anything a model call threw or streamed as an error part:
 *
 * | error                                   | result                                                  |
 * | --------------------------------------- | ------------------------------------------------------- |
 * | a `TroupeError`                         | itself                                                  |
 * | `RetryError` (AI SDK retries exhausted) | its `lastError`, classified                             |
 * | `APICallError`                          | `ModelCallError`, retryable = `isRetryable`, with the status code |
 * | an error inside a 200 stream (`StreamProviderError`, or a provider's error object: `{ type: "overloaded_error", message }`, `{ error: { code: 503, … } }`) | `ModelCallError` classified like the same status on the HTTP response: 408, 409, 429 and 5xx retry (status from the error, else from its `type`/`code`: `overloaded_error` 529, `rate_limit_error` 429, `api_error` 500, …); also retryable when the provider says so |
 * | another AI SDK error (invalid prompt, unsupported feature, bad response data, …) | `ModelCallError`, not retryable |
 * | a network failure (`fetch failed`, `terminated`, `ECONNRESET`, …) | `ModelCallError`, retryable   |
 * | anything else                           | `ModelCallError`, not retryable                         |
 *
 * The message says what failed in Troupe's words (model, provider, status); the
 * provider's error is chained as `cause`, never pasted into the message, so
 * logs and wire errors show its message once (`toWireError` appends it).
 *
 * @param error - the thrown value or the `error` of an `error` stream part.
 * @param model - provider and model id, for the message and the details.
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
  const failed = `model ${model.modelId} of ${model.provider} failed`;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode === undefined ? "" : ` (HTTP ${error.statusCode})`;
    return new ModelCallError(
      `${failed}${status}`,
      error.isRetryable,
      {
        ...where,
        errorName: error.name,
        ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      },
      error,
    );
  }
  const inStream = streamErrorOf(error);
  if (inStream !== undefined) {
    const { statusCode, type } = inStream;
    const label = [type, statusCode === undefined ? undefined : `like HTTP ${statusCode}`]
      .filter((part) => part !== undefined)
      .join(", ");
    return new ModelCallError(
      `${failed} mid-stream${label === "" ? "" : ` (${label})`}`,
      inStream.retryable,
      {
        ...where,
        errorName: error instanceof Error ? error.name : "StreamError",
        ...(statusCode === undefined ? {} : { statusCode }),
        ...(type === undefined ? {} : { errorType: type }),
      },
      inStream.cause,
    );
  }
  const name = error instanceof Error ? error.name : typeof error;
  const retryable = !AISDKError.isInstance(error) && isNetworkError(error);
  if (hasMessage(error)) {
    return new ModelCallError(failed, retryable, { ...where, errorName: name }, error);
  }
  // Nothing with a message to chain: say what was thrown in the message itself.
  return new ModelCallError(
    `${failed}: ${String(error)}`,
    retryable,
    { ...where, errorName: name },
    error,
  );
}

/** An error reported inside a 200 stream, with the status it stands for. */
interface StreamErrorClass {
  readonly statusCode: number | undefined;
  readonly type: string | undefined;
  readonly retryable: boolean;
  /** What to chain as `cause`: the error, or an `Error` made from a plain error object's message. */
  readonly cause: unknown;
}

/**
 * A `StreamProviderError` (the AI SDK's form of a provider's in-stream error),
 * or a plain provider error object (`{ type, message }`, `{ error: { … } }`):
 * its status (explicit, else from its `type` / `code`) and whether a retry may
 * help. Undefined for anything else.
 */
function streamErrorOf(error: unknown): StreamErrorClass | undefined {
  if (StreamProviderError.isInstance(error)) {
    const type = typeof error.type === "string" ? error.type : undefined;
    const statusCode = error.statusCode ?? statusOfType(type) ?? statusOfType(error.code);
    return {
      statusCode,
      type,
      retryable: error.isRetryable || isRetryableStatus(statusCode),
      cause: error,
    };
  }
  if (error instanceof Error || typeof error !== "object" || error === null) return undefined;
  const outer = error as Record<string, unknown>;
  const inner =
    typeof outer["error"] === "object" && outer["error"] !== null
      ? (outer["error"] as Record<string, unknown>)
      : outer;
  const type = stringField(inner, "type") ?? stringField(outer, "type");
  const statusCode =
    httpStatus(inner["status"]) ??
    httpStatus(inner["statusCode"]) ??
    httpStatus(inner["code"]) ??
    httpStatus(outer["status"]) ??
    statusOfType(type === "error" ? undefined : type) ??
    statusOfType(inner["code"]);
  const message = stringField(inner, "message") ?? stringField(outer, "message");
  if (statusCode === undefined && type === undefined && message === undefined) return undefined;
  return {
    statusCode,
    type: type === "error" ? undefined : type,
    retryable: inner["isRetryable"] === true || isRetryableStatus(statusCode),
    cause: message === undefined ? error : new Error(message),
  };
}

function statusOfType(type: unknown): number | undefined {
  return typeof type === "string" ? STATUS_OF_ERROR_TYPE[type] : undefined;
}

function httpStatus(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number >= 400 && number <= 599
    ? number
    : undefined;
}

/** The statuses `APICallError` retries: 408, 409, 429 and 5xx. */
function isRetryableStatus(statusCode: number | undefined): boolean {
  return (
    statusCode !== undefined &&
    (statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500)
  );
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function hasMessage(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { message?: unknown }).message === "string" &&
    (value as { message: string }).message.length > 0
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
