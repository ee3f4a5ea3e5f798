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
