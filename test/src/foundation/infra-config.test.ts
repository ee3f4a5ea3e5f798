import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inboxSubjectMapping } from "@troupe/protocol";
import { findServerBinary } from "@troupe/dev";
import { renderNatsServerConfig } from "@troupe/dev/internal";
import { parse } from "yaml";
import { describe, expect, test } from "vitest";

const infraFolder = fileURLToPath(new URL("../../../infra/", import.meta.url));
const defaultShardCount = 64;

async function readInfraFile(name: string): Promise<string> {
  return await readFile(`${infraFolder}${name}`, "utf8");
}

function mappingLine(shardCount: number): string {
  const { source, destination } = inboxSubjectMapping(shardCount);
  return `${JSON.stringify(source)}: ${JSON.stringify(destination)}`;
}

describe("hand-written server configs in infra/", () => {
  test.each(["nats-server.conf", "nats-cluster.conf"])(
    "%s carries @troupe/protocol's inbox subject mapping for 64 shards, a 4 MB payload limit and JetStream",
    async (file) => {
      const config = await readInfraFile(file);

      expect(config).toContain(mappingLine(defaultShardCount));
      expect(config).toMatch(/^max_payload: 4MB$/m);
      expect(config).toMatch(/^jetstream \{$/m);
    },
  );

  test("the generated test config carries the same mapping line as infra/nats-server.conf", async () => {
    const generated = renderNatsServerConfig({
      host: "127.0.0.1",
      storeDir: "/tmp/unused",
      shardCount: defaultShardCount,
    });
    const handWritten = await readInfraFile("nats-server.conf");

    expect(generated).toContain(mappingLine(defaultShardCount));
    expect(handWritten).toContain(mappingLine(defaultShardCount));
  });

  test("redis.conf keeps an append-only file fsynced every second, on loopback", async () => {
    const config = await readInfraFile("redis.conf");

    expect(config).toMatch(/^appendonly yes$/m);
    expect(config).toMatch(/^appendfsync everysec$/m);
    expect(config).toMatch(/^bind 127\.0\.0\.1$/m);
  });
});

/** The parts of a compose service these checks read. */
interface ComposeService {
  readonly image?: string;
  readonly profiles?: readonly string[];
  readonly command?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly volumes?: readonly string[];
  readonly depends_on?: Record<string, unknown>;
}

async function readCompose(): Promise<Record<string, ComposeService>> {
  // `merge: true` resolves the `<<: *anchor` keys the way compose does.
  const document = parse(await readInfraFile("compose.yml"), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  return document.services;
}

// compose.yml cannot be run here (no container runtime): these check what can
// be checked without one (issue #17).
describe("compose.yml: the 3-node NATS cluster and the sentinel profile", () => {
  test("the hosts get every NATS node as a seed and 3 stream replicas, one per node, and every node routes to every node", async () => {
    const services = await readCompose();
    const natsNodes = Object.keys(services).filter((name) => /^nats-\d+$/.test(name));
    expect(natsNodes).toEqual(["nats-1", "nats-2", "nats-3"]);
    const hosts = Object.entries(services).filter(([name]) => name.startsWith("troupe-host-"));
    expect(hosts.length).toBe(2);
    for (const [, host] of hosts) {
      expect(host.environment?.TROUPE_NATS_URL?.split(",")).toEqual(
        natsNodes.map((node) => `nats://${node}:4222`),
      );
      expect(Number(host.environment?.TROUPE_STREAM_REPLICAS)).toBe(natsNodes.length);
    }
    const clusterConfig = await readInfraFile("nats-cluster.conf");
    for (const node of natsNodes) {
      expect(clusterConfig).toContain(`nats://${node}:6222`);
      expect(services[node]?.environment?.SERVER_NAME).toBe(node);
    }
  });

  test("nats-server accepts nats-cluster.conf (nats-server -t)", async () => {
    const binary = findServerBinary("nats-server");
    expect(binary, "nats-server is installed (node infra/ensure-servers.mjs)").toBeDefined();
    const { stderr, stdout } = await promisify(execFile)(
      binary as string,
      ["-t", "-c", `${infraFolder}nats-cluster.conf`],
      { env: { ...process.env, SERVER_NAME: "nats-1" } },
    );
    expect(`${stdout}${stderr}`).toMatch(/configuration file .*nats-cluster\.conf is valid/);
  });

  test("the sentinel profile runs a primary, a replica of it and three Sentinels with a quorum of 2 watching the primary, none of them in the default set", async () => {
    const services = await readCompose();
    const profile = Object.entries(services).filter(([, service]) =>
      service.profiles?.includes("sentinel"),
    );
    expect(profile.map(([name]) => name).sort()).toEqual([
      "redis-primary",
      "redis-replica",
      "redis-sentinel-1",
      "redis-sentinel-2",
      "redis-sentinel-3",
    ]);
    const replicaCommand = services["redis-replica"]?.command ?? [];
    expect(replicaCommand.slice(replicaCommand.indexOf("--replicaof"))).toEqual([
      "--replicaof",
      "redis-primary",
      "6379",
    ]);
    const sentinels = profile.filter(([name]) => name.startsWith("redis-sentinel-"));
    for (const [, sentinel] of sentinels) {
      expect(sentinel.command?.join(" ")).toContain("redis-sentinel /data/sentinel.conf");
      expect(sentinel.volumes).toContain("./redis-sentinel.conf:/etc/redis/sentinel.conf:ro");
    }
    // Each sentinel keeps its rewritten config in a volume of its own.
    const dataVolumes = sentinels.map(([, sentinel]) =>
      sentinel.volumes?.find((volume) => volume.endsWith(":/data")),
    );
    expect(new Set(dataVolumes).size).toBe(sentinels.length);

    const sentinelConfig = await readInfraFile("redis-sentinel.conf");
    const monitor = /^sentinel monitor (\S+) (\S+) (\d+) (\d+)$/m.exec(sentinelConfig);
    expect(monitor?.slice(1)).toEqual(["troupe", "redis-primary", "6379", "2"]);
    // A quorum is a majority of the Sentinels: one can be lost, two cannot disagree.
    expect(Number(monitor?.[4])).toBe(Math.floor(sentinels.length / 2) + 1);
  });
});
