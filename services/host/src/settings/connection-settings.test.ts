import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeDevState, type DevState } from "./dev-state.js";
import { ConnectionConfigError } from "../connection/connection-config-error.js";
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
  for (const name of Object.keys(process.env)) {
    if (/^TROUPE_(NATS|REDIS)_|^TROUPE_CONFIG$/.test(name)) delete process.env[name];
  }
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
      nats: { natsUrl: "nats://127.0.0.1:4222" },
      redis: { mode: "standalone", url: "redis://127.0.0.1:6379" },
      prefix: "troupe",
      source: "default",
    });
  });

  it("finds a running troupe dev through its state file", async () => {
    await writeDevState(devState(process.pid));
    expect(await resolveConnection({})).toEqual({
      natsUrl: "nats://127.0.0.1:14222",
      redisUrl: "redis://127.0.0.1:16379",
      nats: { natsUrl: "nats://127.0.0.1:14222" },
      redis: { mode: "standalone", url: "redis://127.0.0.1:16379" },
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
      nats: { natsUrl: "nats://flag:1" },
      redis: { mode: "standalone", url: "redis://flag:2" },
      prefix: "p",
      source: "flag",
      // The running troupe dev is still reported (for its agent module).
      dev: devState(process.pid),
    });
  });

  it("takes each field from flags, then environment, then the config file (issue #17)", async () => {
    const caFile = join(home, "ca.pem");
    const seedFile = join(home, "host.nk");
    await writeFile(caFile, "not checked here");
    await writeFile(seedFile, "SUAFAKE");
    const config = join(home, "troupe.yaml");
    await writeFile(
      config,
      [
        "prefix: fromfile",
        "nats:",
        "  urls: [tls://file-1:4222, tls://file-2:4222]",
        "  user: file-user",
        "  password: file-password",
        "  tls: { caFile: ca.pem }",
        "redis:",
        "  cluster: [redis://node-1:7000, redis://node-2:7001]",
        "  username: file-redis-user",
        "  password: file-redis-password",
      ].join("\n"),
    );
    process.env.TROUPE_CONFIG = config;
    const fromFile = await resolveConnection({});
    expect(fromFile).toMatchObject({
      natsUrl: "tls://file-1:4222,tls://file-2:4222",
      prefix: "fromfile",
      source: "config file",
      nats: {
        credentials: { user: "file-user", pass: "file-password" },
        // Relative paths are read relative to the config file's folder.
        tls: { caFile },
      },
      redis: {
        mode: "cluster",
        nodes: ["redis://node-1:7000", "redis://node-2:7001"],
        username: "file-redis-user",
        password: "file-redis-password",
      },
    });
    process.env.TROUPE_NATS_PASSWORD = "env-password";
    process.env.TROUPE_REDIS_URL = "rediss://env-redis:6380";
    const withEnvironment = await resolveConnection({ natsUser: "flag-user", natsNkey: seedFile });
    expect(withEnvironment.nats.credentials).toEqual({
      user: "flag-user",
      pass: "env-password",
      nkeySeedFile: seedFile,
    });
    // The endpoint comes whole from the environment: its URL replaces the file's cluster.
    expect(withEnvironment.redis).toEqual({
      mode: "standalone",
      url: "rediss://env-redis:6380",
      username: "file-redis-user",
      password: "file-redis-password",
    });
    expect(
      (await resolveConnection({ redisSentinels: "s1:26379,s2", redisMaster: "troupe" })).redis,
    ).toMatchObject({ mode: "sentinel", sentinels: ["s1:26379", "s2"], masterName: "troupe" });
  });

  it("refuses a bad config file, an unreadable file path or two Redis modes with a typed error", async () => {
    const config = join(home, "bad.yaml");
    await writeFile(config, "nats:\n  passwd: hunter2\n");
    const badKey = await resolveConnection({ config }).catch((error: unknown) => error);
    expect(ConnectionConfigError.isInstance(badKey)).toBe(true);
    expect((badKey as Error).message).toContain("nats: Unrecognized key");
    expect((badKey as Error).message).not.toContain("hunter2");
    await writeFile(config, "nats: [unclosed\n");
    await expect(resolveConnection({ config })).rejects.toThrow(/not valid YAML or JSON/);
    await expect(resolveConnection({ config: join(home, "missing.yaml") })).rejects.toThrow(
      /cannot read it/,
    );
    await expect(resolveConnection({ natsTlsCa: join(home, "missing.pem") })).rejects.toThrow(
      /NATS TLS CA file.*cannot read/,
    );
    await expect(
      resolveConnection({ redis: "redis://a:1", redisCluster: "redis://b:2" }),
    ).rejects.toMatchObject({ code: "invalid_options" });
    await expect(resolveConnection({ redisSentinels: "s1:26379" })).rejects.toThrow(
      /--redis-master/,
    );
  });
});
