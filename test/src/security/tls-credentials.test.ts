import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createUser } from "@nats-io/nkeys";
import { checkRedis, RedisUnreachableError } from "@troupe/host";
import { TroupeClient } from "@troupe/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { runTroupe } from "../support/troupe-cli.js";
import {
  startTroupeServerProcess,
  type TroupeServerProcess,
} from "../support/troupe-server-process.js";
import { startTlsNatsServer, startTlsRedisServer, type SecureServer } from "./secure-servers.js";
import { writeTestCertificates, type TestCertificates } from "./test-certificates.js";

// Issue #17: a `troupe host` and a TroupeClient reach NATS and Redis through
// TLS with client certificates (generated here), an NKey, a NATS user/password
// and a Redis ACL user; wrong credentials or no certificate are refused clearly,
// and no password reaches the host's output.
const SHARDS = 4;
const prefix = `tls${process.pid}`;
const clientPassword = "client-pw-3c1f9a";
const redisPassword = "redis-pw-8e2d47";
let folder: string;
let home: string;
let certificates: TestCertificates;
let nats: SecureServer;
let redis: SecureServer;
let host: TroupeServerProcess;
let hostSeed: string;
let natsUrl: string;

/** The host's connection settings: all from environment variables. */
const hostEnvironment = (): Record<string, string> => ({
  TROUPE_NATS_URL: natsUrl,
  TROUPE_NATS_NKEY_SEED_FILE: join(folder, "host.nk"),
  TROUPE_NATS_TLS_CA_FILE: certificates.caFile,
  TROUPE_NATS_TLS_CERT_FILE: certificates.clientCertFile,
  TROUPE_NATS_TLS_KEY_FILE: certificates.clientKeyFile,
  // The password sits in the URL on purpose: it must not be printed.
  TROUPE_REDIS_URL: `rediss://troupe-host:${redisPassword}@127.0.0.1:${redis.port}`,
  TROUPE_REDIS_TLS_CA_FILE: certificates.caFile,
  TROUPE_REDIS_TLS_CERT_FILE: certificates.clientCertFile,
  TROUPE_REDIS_TLS_KEY_FILE: certificates.clientKeyFile,
  TROUPE_LOG_LEVEL: "debug",
});

/** For a connect that should have been refused: closes the client and says it connected. */
const refusedWith = async (client: TroupeClient): Promise<string> => {
  await client.close();
  return "connected";
};

const clientTls = () => ({
  caFile: certificates.caFile,
  certFile: certificates.clientCertFile,
  keyFile: certificates.clientKeyFile,
});

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}security-`));
  home = join(folder, "home");
  certificates = await writeTestCertificates(folder);
  const hostKey = createUser();
  hostSeed = new TextDecoder().decode(hostKey.getSeed());
  await writeFile(join(folder, "host.nk"), `${hostSeed}\n`);
  nats = await startTlsNatsServer(
    folder,
    certificates,
    [
      `{ nkey: ${JSON.stringify(hostKey.getPublicKey())} }`,
      `{ user: "client", password: ${JSON.stringify(clientPassword)} }`,
    ],
    SHARDS,
  );
  natsUrl = `tls://127.0.0.1:${nats.port}`;
  redis = await startTlsRedisServer(folder, certificates, {
    user: "troupe-host",
    password: redisPassword,
  });
  host = await startTroupeServerProcess(
    home,
    ["host", "--prefix", prefix, "--shards", String(SHARDS)],
    {
      name: "troupe host over TLS",
      ready: (stdout) => stdout.includes("stops it gracefully"),
      env: hostEnvironment(),
    },
  );
}, 60_000);

afterAll(async () => {
  await host?.stop();
  await nats?.stop();
  await redis?.stop();
  await rm(folder, { recursive: true, force: true });
});

describe("TLS and credentials (issue #17)", () => {
  it("a TroupeClient with user/password and a client certificate completes a turn on the TLS host", async () => {
    const client = await TroupeClient.connect({
      natsUrl,
      credentials: { user: "client", pass: clientPassword },
      tls: clientTls(),
      prefix,
    });
    try {
      const outcome = await client.sendAndWait("tls-1", "hello", { timeoutMs: 30_000 });
      expect(outcome.status).toBe("completed");
    } finally {
      await client.close();
    }
  }, 45_000);

  it("the host's output names its servers with the Redis password and NKey seed redacted", () => {
    const output = host.output();
    expect(output).toContain(`rediss://troupe-host:***@127.0.0.1:${redis.port}`);
    expect(output).not.toContain(redisPassword);
    expect(output).not.toContain(hostSeed);
  });

  it("troupe status reads the deployment with settings from a config file", async () => {
    const config = join(folder, "troupe.yaml");
    await writeFile(
      config,
      [
        `prefix: ${prefix}`,
        "nats:",
        `  urls: ${natsUrl}`,
        "  user: client",
        `  password: ${clientPassword}`,
        "  tls: { caFile: ca.pem, certFile: client.pem, keyFile: client-key.pem }",
        "redis:",
        `  url: rediss://127.0.0.1:${redis.port}`,
        "  username: troupe-host",
        `  password: ${redisPassword}`,
        "  tls: { caFile: ca.pem, certFile: client.pem, keyFile: client-key.pem }",
      ].join("\n"),
    );
    const status = await runTroupe(["status", "--json", "--config", config], { home });
    expect(status.stderr).toBe("");
    const report = JSON.parse(status.stdout) as {
      totals: { liveHosts: number; ownedShards: number };
    };
    expect(report.totals).toEqual(expect.objectContaining({ liveHosts: 1, ownedShards: SHARDS }));
  }, 45_000);

  it("refuses a wrong NATS password and a client without a certificate with clear errors", async () => {
    const wrongPassword = await TroupeClient.connect({
      natsUrl,
      credentials: { user: "client", pass: "not-the-password" },
      tls: clientTls(),
      prefix,
    }).then(refusedWith, (error: unknown) => String(error));
    expect(wrongPassword).toMatch(/Authorization Violation/i);
    expect(wrongPassword).not.toContain("not-the-password");
    const noCertificate = await TroupeClient.connect({
      natsUrl,
      credentials: { user: "client", pass: clientPassword },
      tls: { caFile: certificates.caFile },
      prefix,
      connectTimeoutMs: 3_000,
    }).then(refusedWith, (error: unknown) => String(error));
    expect(noCertificate).toContain(`NatsUnreachableError: Cannot reach NATS at ${natsUrl}`);
  }, 30_000);

  it("refuses a wrong Redis password and a missing client certificate without printing the password", async () => {
    const url = `rediss://troupe-host:wrong-pw-5a5a@127.0.0.1:${redis.port}`;
    const tls = clientTls();
    const wrong = await checkRedis({ mode: "standalone", url, tls }).catch(
      (error: unknown) => error as Error,
    );
    expect(RedisUnreachableError.isInstance(wrong)).toBe(true);
    expect(String(wrong)).toContain(
      `Redis at rediss://troupe-host:***@127.0.0.1:${redis.port} refused the credentials (WRONGPASS`,
    );
    expect(String(wrong)).not.toContain("wrong-pw-5a5a");
    const noCertificate = await checkRedis({
      mode: "standalone",
      url: `rediss://127.0.0.1:${redis.port}`,
      username: "troupe-host",
      password: redisPassword,
      tls: { caFile: certificates.caFile },
    }).catch((error: unknown) => error as Error);
    expect(RedisUnreachableError.isInstance(noCertificate)).toBe(true);
    expect(String(noCertificate)).toContain(
      `Cannot reach Redis at rediss://127.0.0.1:${redis.port}`,
    );
    expect(String(noCertificate)).not.toContain(redisPassword);
  }, 30_000);

  it("the host drains on SIGTERM and exits 0, its TLS connections closed", async () => {
    expect(await host.stop()).toBe(0);
  }, 30_000);
});
