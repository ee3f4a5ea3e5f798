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

  it("are never cached, and other paths are 404", async () => {
    const app = createHostHttpApp(new HostHealth());
    expect((await app.request("/readyz")).headers.get("Cache-Control")).toBe("no-store");
    expect((await app.request("/healthz")).headers.get("Cache-Control")).toBe("no-store");
    expect((await app.request("/metrics")).status).toBe(404);
  });
});
