import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeDevState, type DevState } from "../dev/dev-state.js";
import { resolveConnection } from "./connection-settings.js";

const saved = { ...process.env };
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

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "troupe-unit-home-"));
  process.env.TROUPE_HOME = home;
  delete process.env.TROUPE_NATS_URL;
  delete process.env.TROUPE_REDIS_URL;
  delete process.env.TROUPE_PREFIX;
});

afterEach(async () => {
  process.env = { ...saved };
  await rm(home, { recursive: true, force: true });
});

describe("resolveConnection", () => {
  it("uses the default local ports when nothing is given and no troupe dev runs", async () => {
    expect(await resolveConnection({})).toEqual({
      natsUrl: "nats://127.0.0.1:4222",
      redisUrl: "redis://127.0.0.1:6379",
      prefix: "troupe",
      source: "default",
    });
  });

  it("finds a running troupe dev through its state file", async () => {
    await writeDevState(devState(process.pid));
    expect(await resolveConnection({})).toEqual({
      natsUrl: "nats://127.0.0.1:14222",
      redisUrl: "redis://127.0.0.1:16379",
      prefix: "devprefix",
      source: "troupe dev",
      dev: devState(process.pid),
    });
  });

  it("ignores the state file of a troupe dev that is gone", async () => {
    // A pid above the kernel's maximum (4,194,304 on Linux) never exists.
    await writeDevState(devState(99_999_999));
    const settings = await resolveConnection({});
    expect(settings.source).toBe("default");
    expect(settings.note).toBe(
      `the troupe dev recorded in ${join(home, "dev.json")} (pid 99999999, nats://127.0.0.1:14222) is gone; using nats://127.0.0.1:4222`,
    );
  });

  it("prefers the environment to troupe dev, and flags to both", async () => {
    await writeDevState(devState(process.pid));
    process.env.TROUPE_NATS_URL = "nats://10.0.0.1:4222";
    expect(await resolveConnection({})).toMatchObject({
      natsUrl: "nats://10.0.0.1:4222",
      redisUrl: "redis://127.0.0.1:16379",
      source: "environment",
    });
    expect(
      await resolveConnection({ nats: "nats://flag:1", redis: "redis://flag:2", prefix: "p" }),
    ).toEqual({
      natsUrl: "nats://flag:1",
      redisUrl: "redis://flag:2",
      prefix: "p",
      source: "flag",
      // The running troupe dev is still reported (for its agent module).
      dev: devState(process.pid),
    });
  });
});
