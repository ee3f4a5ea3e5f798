import { describe, expect, it } from "vitest";
import { HostHealth, type HealthReportingHost } from "./host-health.js";
import { createHostHttpApp } from "./host-http-app.js";

function fakeHost(): HealthReportingHost & { draining: boolean } {
  return {
    hostId: "host-a",
    ownedShards: [0, 1, 2],
    members: ["host-a", "host-b"],
    draining: false,
  };
}

describe("the host's health routes (issue #17)", () => {
  it("answer liveness in every phase, and readiness only between start and drain", async () => {
    const health = new HostHealth();
    const app = createHostHttpApp(health);
    const get = async (path: string) => {
      const response = await app.request(path);
      return { status: response.status, body: await response.json() };
    };

    expect(await get("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
    expect(await get("/readyz")).toEqual({ status: 503, body: { phase: "starting" } });

    const host = fakeHost();
    health.started(host);
    expect(await get("/readyz")).toEqual({
      status: 200,
      body: { phase: "ready", hostId: "host-a", ownedShards: 3, members: 2 },
    });

    host.draining = true;
    expect(await get("/readyz")).toEqual({
      status: 503,
      body: { phase: "draining", hostId: "host-a", ownedShards: 3, members: 2 },
    });
    expect(await get("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
  });

  it("answer readiness 503 stalled while the event loop's latest window passed its bound (issue #31)", async () => {
    const health = new HostHealth();
    const app = createHostHttpApp(health);
    const eventLoopDelay = { p99Ms: 3, maxMs: 4, delayed: false };
    health.started({ ...fakeHost(), eventLoopDelay });
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      phase: "ready",
      eventLoopDelayMs: { p99: 3, max: 4 },
    });

    Object.assign(eventLoopDelay, { p99Ms: 900, maxMs: 2_400, delayed: true });
    const stalled = await app.request("/readyz");
    expect(stalled.status).toBe(503);
    expect(await stalled.json()).toMatchObject({
      phase: "stalled",
      eventLoopDelayMs: { p99: 900, max: 2_400 },
    });
  });

  it("are never cached, and other paths are 404", async () => {
    const app = createHostHttpApp(new HostHealth());
    expect((await app.request("/readyz")).headers.get("Cache-Control")).toBe("no-store");
    expect((await app.request("/healthz")).headers.get("Cache-Control")).toBe("no-store");
    expect((await app.request("/metrics")).status).toBe(404);
  });
});
