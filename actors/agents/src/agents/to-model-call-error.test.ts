import { APICallError, InvalidPromptError } from "@ai-sdk/provider";
import { TroupeError } from "@troupe/protocol";
import { RetryError } from "ai";
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

  it("keeps a TroupeError as it is", () => {
    const error = new TroupeError("timeout", "late", { retryable: true });
    expect(toModelCallError(error, model)).toBe(error);
  });
});
