import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream } from "@nats-io/jetstream";
import { parseReadyLine } from "@troupe/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";
import { testRunMarker } from "../harness/test-run-marker.js";
import { runTroupe } from "../support/troupe-cli.js";
import { followSession } from "../support/session-events.js";
import {
  startTroupeServerProcess,
  type TroupeServerProcess,
} from "../support/troupe-server-process.js";
import { waitFor } from "../support/wait-for.js";

/**
 * `troupe host --health-port` (issue #17): liveness and readiness of a real
 * host process, before and during a SIGTERM drain. The tests share one host
 * and run in order: the last one stops it.
 */
describe("troupe host's health endpoint", () => {
  let servers: TestServers;
  let nats: NatsConnection;
  let home: string;
  let host: TroupeServerProcess;
  let healthUrl: string;

  const healthUrlOf = (stdout: string) =>
    stdout
      .split("\n")
      .map((line) => parseReadyLine(line))
      .find((ready) => ready?.healthUrl !== undefined)?.healthUrl;

  const get = async (url: string) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    servers = await startTestServers({ shardCount: 64 });
    nats = await connect({ servers: servers.natsUrl });
    home = await mkdtemp(join(tmpdir(), `${testRunMarker()}health-`));
    host = await startTroupeServerProcess(
      home,
      [
        "host",
        ...["--nats", servers.natsUrl, "--redis", servers.redisUrl],
        ...["--health-port", "0", "--drain-timeout", "20000", "--json"],
      ],
      { ready: (stdout) => healthUrlOf(stdout) !== undefined, name: "troupe host" },
    );
    healthUrl = healthUrlOf(host.stdout())!;
  }, 90_000);

  afterAll(async () => {
    await host?.kill();
    await nats?.close();
    await servers?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("answers /healthz and /readyz 200 once the host started, on loopback", async () => {
    expect(healthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await get(`${healthUrl}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });
    const ready = await get(`${healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ phase: "ready", ownedShards: 64, members: 1 });
  });

  it("refuses a health port in use with a clear error, before connecting", async () => {
    const port = new URL(healthUrl).port;
    const second = await runTroupe(
      [
        "host",
        ...["--nats", servers.natsUrl, "--redis", servers.redisUrl],
        ...["--health-port", port, "--json"],
      ],
      { home, timeoutMs: 60_000 },
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `health endpoint cannot listen on 127.0.0.1:${port} (EADDRINUSE)`,
    );
    expect(JSON.parse(second.stdout.trim().split("\n").at(-1)!)).toMatchObject({
      ok: false,
      error: { code: "invalid_options" },
    });
  }, 60_000);

  it("answers /readyz 503 (and /healthz 200) while a SIGTERM drain lets a model call finish", async () => {
    const session = followSession(nats, "health-drain");
    try {
      // A 30-word answer streamed 100 ms apart (the demo model's /slow): about 3 s in flight.
      await jetstream(nats).publish(
        "troupe.session.health-drain.in",
        new TextEncoder().encode('{"type":"user.message","text":"/slow 100"}'),
      );
      await session.first("run.delta", undefined, 30_000);
      const child = host.child;
      const exitCode = new Promise<number | null>((resolve) => child.once("close", resolve));
      child.kill("SIGTERM");

      let draining: { status: number; body: Record<string, unknown> } | undefined;
      await waitFor(
        async () => {
          draining = await get(`${healthUrl}/readyz`);
          return draining.status === 503;
        },
        { timeoutMs: 10_000, intervalMs: 20, description: "/readyz 503 after SIGTERM" },
      );
      const streamedText = () =>
        session
          .payloads("run.delta")
          .map((delta) => String(delta["text"]))
          .join("");
      const textWhenDraining = streamedText();
      // Idle shards are released as soon as their drain starts (in parallel),
      // so how many are left when the first 503 is seen depends on load; the
      // shard whose run is streaming stays owned until its model call ends.
      expect(draining?.body).toMatchObject({ phase: "draining" });
      expect(draining?.body["ownedShards"]).toBeGreaterThanOrEqual(1);
      expect(draining?.body["ownedShards"]).toBeLessThanOrEqual(64);
      expect(await get(`${healthUrl}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });

      // The drain let the model call stream to its end (it was mid-answer when
      // /readyz turned 503) before the host released its leases and exited 0.
      expect(await exitCode).toBe(0);
      const lastWords = "while the model call is still streaming its text.";
      expect(textWhenDraining).not.toContain(lastWords);
      expect(streamedText()).toContain(lastWords);
      await expect(fetch(`${healthUrl}/healthz`)).rejects.toThrow();
    } finally {
      session.stop();
    }
  }, 60_000);
});
