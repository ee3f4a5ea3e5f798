import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { checkRedis } from "./check-redis.js";
import { RedisUnreachableError } from "./redis-unreachable-error.js";

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("checkRedis", () => {
  it("fails with RedisUnreachableError, within its deadline, when no sentinel answers (a host hung silently before)", async () => {
    const port = await closedPort();
    const started = Date.now();
    const failure = await checkRedis(
      { mode: "sentinel", sentinels: [`127.0.0.1:${port}`], masterName: "troupe" },
      1_000,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RedisUnreachableError);
    expect((failure as Error).message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("fails with RedisUnreachableError when a standalone server does not listen", async () => {
    const port = await closedPort();
    const failure = await checkRedis(`redis://127.0.0.1:${port}`, 1_000).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RedisUnreachableError);
    expect((failure as Error).message).toContain("ECONNREFUSED");
  });
});

describe("RedisUnreachableError", () => {
  it("says the credentials were refused, and where to give them, for WRONGPASS and NOAUTH", () => {
    for (const reason of [
      "WRONGPASS invalid username-password pair or user is disabled.",
      "NOAUTH HELLO must be called with the client already authenticated",
    ]) {
      const error = new RedisUnreachableError("redis://:secret@127.0.0.1:6379", new Error(reason));
      expect(error.message).toContain("refused the credentials");
      expect(error.message).toContain("TROUPE_REDIS_PASSWORD");
      expect(error.message).not.toContain("redis-server");
      expect(error.message).not.toContain("secret");
    }
  });

  it("advises starting a server when none answers", () => {
    const error = new RedisUnreachableError(
      "redis://127.0.0.1:6379",
      new Error("connect ECONNREFUSED 127.0.0.1:6379"),
    );
    expect(error.message).toContain("Cannot reach Redis at redis://127.0.0.1:6379");
    expect(error.message).toContain("npx troupe dev");
  });
});
