import { describe, expect, it } from "vitest";
import { TroupeError } from "./troupe-error.js";
import { StoreReadTimeoutError, withReadDeadline } from "./store-read-timeout-error.js";

const where = {
  store: "object_store",
  name: "TROUPE_MEDIA",
  key: "sha256:ab",
  timeoutMs: 30,
} as const;

describe("withReadDeadline (issue #31)", () => {
  it("returns what the read returns in time", async () => {
    expect(await withReadDeadline(() => Promise.resolve(42), where)).toBe(42);
  });

  it("a read that never settles fails at its deadline, aborting its signal and cancelling it once", async () => {
    let signal: AbortSignal | undefined;
    let cancelled = 0;
    const started = Date.now();
    const error = await withReadDeadline(
      (given) => {
        signal = given;
        return new Promise<never>(() => undefined);
      },
      where,
      () => (cancelled += 1),
    ).catch((thrown: unknown) => thrown);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(StoreReadTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "timeout",
      retryable: true,
      store: "object_store",
      bucketOrStream: "TROUPE_MEDIA",
      key: "sha256:ab",
      timeoutMs: 30,
      message: "A read from object store TROUPE_MEDIA (sha256:ab) did not complete within 30 ms.",
    });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(error);
    expect(cancelled).toBe(1);
  });

  it("the client library's own request timeout becomes the typed error, with it as the cause", async () => {
    const own = Object.assign(new Error("timeout"), { name: "TimeoutError" });
    const error = await withReadDeadline(() => Promise.reject(own), {
      ...where,
      timeoutMs: 60_000,
    }).catch((thrown: unknown) => thrown);
    expect(StoreReadTimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).cause).toBe(own);
  });

  it("other errors pass through unchanged", async () => {
    const other = new TroupeError("unavailable", "no stream");
    await expect(withReadDeadline(() => Promise.reject(other), where)).rejects.toBe(other);
  });
});
