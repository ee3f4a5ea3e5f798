import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DevState } from "./dev-state.js";
import { resolveDeployment } from "./resolve-deployment.js";

let home: string;

function devState(pid: number): DevState {
  return {
    version: 1,
    pid,
    natsUrl: "nats://127.0.0.1:14222",
    redisUrl: "redis://127.0.0.1:16379",
    prefix: "devprefix",
    shardCount: 8,
    agentModule: "demo",
    agents: ["demo"],
    hosts: [],
    startedAtMs: 1,
  };
}

async function writeState(state: DevState): Promise<void> {
  await writeFile(join(home, "dev.json"), JSON.stringify(state));
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "troupe-client-home-"));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("resolveDeployment", () => {
  it("prefers the option, then TROUPE_NATS_URL (comma-separated), then the local default", async () => {
    const environment = { TROUPE_HOME: home };
    expect(
      (
        await resolveDeployment(
          { natsUrl: ["nats://a:1"] },
          { ...environment, TROUPE_NATS_URL: "nats://b:2" },
        )
      ).natsUrls,
    ).toEqual(["nats://a:1"]);
    expect(
      await resolveDeployment({}, { ...environment, TROUPE_NATS_URL: "nats://b:2, nats://c:3" }),
    ).toEqual({ natsUrls: ["nats://b:2", "nats://c:3"], prefix: "troupe", source: "environment" });
    expect(await resolveDeployment({}, environment)).toEqual({
      natsUrls: ["nats://127.0.0.1:4222"],
      prefix: "troupe",
      source: "default",
    });
  });

  it("finds a running troupe dev after the environment, with its prefix", async () => {
    await writeState(devState(process.pid));
    expect(await resolveDeployment({}, { TROUPE_HOME: home })).toEqual({
      natsUrls: ["nats://127.0.0.1:14222"],
      prefix: "devprefix",
      source: "troupe dev",
      dev: devState(process.pid),
    });
    const withVariable = await resolveDeployment(
      {},
      { TROUPE_HOME: home, TROUPE_NATS_URL: "nats://b:2", TROUPE_PREFIX: "p" },
    );
    expect(withVariable).toMatchObject({
      natsUrls: ["nats://b:2"],
      prefix: "p",
      source: "environment",
    });
  });

  it("ignores the state file of a troupe dev that is gone, and reports it", async () => {
    // A pid above the kernel's maximum (4,194,304 on Linux) never exists.
    await writeState(devState(99_999_999));
    expect(await resolveDeployment({}, { TROUPE_HOME: home })).toEqual({
      natsUrls: ["nats://127.0.0.1:4222"],
      prefix: "troupe",
      source: "default",
      staleDev: devState(99_999_999),
    });
  });

  it("ignores a state file that does not parse", async () => {
    await writeFile(join(home, "dev.json"), "{ not json");
    expect((await resolveDeployment({}, { TROUPE_HOME: home })).source).toBe("default");
  });
});
