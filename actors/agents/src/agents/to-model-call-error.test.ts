import { APICallError, InvalidPromptError } from "@ai-sdk/provider";
import { TroupeError, toWireError } from "@troupe/protocol";
import { RetryError, StreamProviderError } from "ai";
import { describe, expect, it } from "vitest";
import { toModelCallError } from "./to-model-call-error.js";

const model = { provider: "openai.chat", modelId: "gpt-4o-mini" };

function apiError(statusCode: number): APICallError {
  return new APICallError({
    message: "status",
    url: "http://x",
    requestBodyValues: {},
    statusCode,
  });
}

describe("toModelCallError", () => {
  it("follows APICallError.isRetryable: 429 and 5xx retry, 4xx does not", () => {
    expect(toModelCallError(apiError(429), model)).toMatchObject({
      code: "model_error",
      retryable: true,
    });
    expect(toModelCallError(apiError(500), model)).toMatchObject({ retryable: true });
    expect(toModelCallError(apiError(401), model)).toMatchObject({
      retryable: false,
      details: { statusCode: 401, provider: "openai.chat", modelId: "gpt-4o-mini" },
    });
  });

  it("classifies the last error of a RetryError", () => {
    const retry = new RetryError({
      message: "gave up",
      reason: "maxRetriesExceeded",
      errors: [apiError(503)],
    });
    expect(toModelCallError(retry, model)).toMatchObject({
      retryable: true,
      details: { statusCode: 503 },
    });
  });

  it("retries network failures but not other AI SDK errors or unknown errors", () => {
    const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    expect(toModelCallError(new TypeError("terminated", { cause: reset }), model).retryable).toBe(
      true,
    );
    expect(
      toModelCallError(new InvalidPromptError({ prompt: [], message: "empty" }), model).retryable,
    ).toBe(false);
    expect(toModelCallError(new Error("bug"), model)).toMatchObject({
      code: "model_error",
      retryable: false,
    });
    expect(toModelCallError("text", model).message).toContain("failed: text");
  });

  it("classifies an error inside a 200 stream like the same status on the HTTP response (issue #11)", () => {
    // The AI SDK's form: Anthropic's overloaded_error carries no status; its type says 529.
    const overloaded = new StreamProviderError({
      message: "The servers are busy",
      type: "overloaded_error",
    });
    expect(overloaded.isRetryable).toBe(false); // what the SDK concludes on its own
    expect(toModelCallError(overloaded, model)).toMatchObject({
      code: "model_error",
      retryable: true,
      message:
        "model gpt-4o-mini of openai.chat failed mid-stream (overloaded_error, like HTTP 529)",
      details: {
        statusCode: 529,
        errorType: "overloaded_error",
        errorName: "AI_StreamProviderError",
      },
    });
    const status503 = new StreamProviderError({ message: "busy", statusCode: 503 });
    expect(toModelCallError(status503, model)).toMatchObject({
      retryable: true,
      details: { statusCode: 503 },
    });
    const rateLimited = new StreamProviderError({
      message: "slow down",
      code: "rate_limit_exceeded",
    });
    expect(toModelCallError(rateLimited, model)).toMatchObject({
      retryable: true,
      details: { statusCode: 429 },
    });
    const invalid = new StreamProviderError({ message: "bad", type: "invalid_request_error" });
    expect(toModelCallError(invalid, model)).toMatchObject({
      retryable: false,
      details: { statusCode: 400 },
    });
    const unknown = new StreamProviderError({ message: "odd", type: "mystery" });
    expect(toModelCallError(unknown, model).retryable).toBe(false);
  });

  it("classifies a provider's plain error object from the stream by its status, type or code", () => {
    const anthropic = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    expect(toModelCallError(anthropic, model)).toMatchObject({
      retryable: true,
      details: { statusCode: 529, errorType: "overloaded_error" },
    });
    const openai = { error: { message: "server had an error", type: "server_error", code: null } };
    expect(toModelCallError(openai, model)).toMatchObject({
      retryable: true,
      details: { statusCode: 500 },
    });
    const coded = { error: { message: "unavailable", code: "503" } };
    expect(toModelCallError(coded, model)).toMatchObject({
      retryable: true,
      details: { statusCode: 503 },
    });
    const refused = { error: { message: "no", type: "invalid_request_error" } };
    expect(toModelCallError(refused, model).retryable).toBe(false);
    // The provider's message is chained, and crosses the wire once.
    expect(toWireError(toModelCallError(anthropic, model)).message).toBe(
      "model gpt-4o-mini of openai.chat failed mid-stream (overloaded_error, like HTTP 529): Overloaded",
    );
  });

  it("chains the provider error instead of pasting its message in: one message on the wire (issue #11)", () => {
    const refused = new APICallError({
      message: "bad request",
      url: "http://x",
      requestBodyValues: {},
      statusCode: 400,
    });
    const error = toModelCallError(refused, model);
    expect(error.message).toBe("model gpt-4o-mini of openai.chat failed (HTTP 400)");
    expect(error.cause).toBe(refused);
    expect(toWireError(error).message).toBe(
      "model gpt-4o-mini of openai.chat failed (HTTP 400): bad request",
    );
    const thrown = toModelCallError(new Error("bug"), model);
    expect(toWireError(thrown).message).toBe("model gpt-4o-mini of openai.chat failed: bug");
  });

  it("keeps a TroupeError as it is", () => {
    const error = new TroupeError("timeout", "late", { retryable: true });
    expect(toModelCallError(error, model)).toBe(error);
  });
});
