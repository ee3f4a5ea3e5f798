import { describe, expect, it } from "vitest";
import { renderNatsServerConfig } from "./nats-server-config.js";

describe("renderNatsServerConfig", () => {
  it("writes one node of a JetStream cluster: server name, tags and a cluster block routing to every node (issue #17)", () => {
    const config = renderNatsServerConfig({
      host: "127.0.0.1",
      port: 4300,
      storeDir: "/tmp/n1",
      shardCount: 8,
      serverName: "n1",
      serverTags: ["ssd"],
      cluster: {
        name: "troupe-test",
        port: 6300,
        routes: ["nats://127.0.0.1:6300", "nats://127.0.0.1:6301"],
      },
    });
    expect(config).toContain('server_name: "n1"');
    expect(config).toContain('server_tags: ["ssd"]');
    expect(config).toContain(
      [
        "cluster {",
        '  name: "troupe-test"',
        '  listen: "127.0.0.1:6300"',
        '  routes: ["nats://127.0.0.1:6300", "nats://127.0.0.1:6301"]',
        "}",
      ].join("\n"),
    );
    expect(config).toContain("partition(8,1,2)");
  });

  it("port 0 asks for a free port (-1), as in Node.js, not nats-server's default 4222", () => {
    const config = renderNatsServerConfig({
      host: "127.0.0.1",
      port: 0,
      monitorPort: 0,
      storeDir: "/tmp/x",
      shardCount: 8,
    });
    expect(config).toContain("port: -1");
    expect(config).toContain('http: "127.0.0.1:-1"');
    expect(config).not.toMatch(/port: 0\b/);
    expect(
      renderNatsServerConfig({ host: "127.0.0.1", port: 4300, storeDir: "/x", shardCount: 8 }),
    ).toContain("port: 4300");
  });

  it("writes no cluster block, server name or tags for a single server", () => {
    const config = renderNatsServerConfig({
      host: "127.0.0.1",
      storeDir: "/tmp/x",
      shardCount: 64,
    });
    expect(config).not.toMatch(/cluster|server_name|server_tags/);
  });
});
