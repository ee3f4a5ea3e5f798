import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { inboxSubjectMapping } from "@troupe/protocol";
import { renderNatsServerConfig } from "@troupe/cli/internal";
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
