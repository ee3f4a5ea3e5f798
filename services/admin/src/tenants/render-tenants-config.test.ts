import { describe, expect, it } from "vitest";
import { renderTenantsConfig, type TenantSpec } from "./render-tenants-config.js";

const tenant = (name: string): TenantSpec => ({
  name,
  hostPassword: `${name}-h`,
  clientPassword: `${name}-c`,
  redisPassword: `${name}-r`,
});

describe("renderTenantsConfig (issue #17)", () => {
  it("gives each tenant an account with JetStream, the inbox mapping and a host and a client user", () => {
    const { natsAccounts } = renderTenantsConfig({
      tenants: [tenant("a"), tenant("b")],
      shardCount: 8,
    });
    expect(natsAccounts).toContain('  "a": {\n    jetstream: enabled\n    mappings: {');
    expect(natsAccounts).toContain(
      '"troupe.*.*.in": "_troupe.inbox.{{partition(8,1,2)}}.{{wildcard(1)}}.{{wildcard(2)}}"',
    );
    expect(natsAccounts).toContain('{ user: "b-host", password: "b-h" }');
    expect(natsAccounts).toContain('{ user: "b-client", password: "b-c",');
    expect(natsAccounts).toContain('"$JS.API.STREAM.DELETE.>",');
    expect(natsAccounts).toContain('"troupe.*.*.events.>",');
  });

  it("limits each tenant's Redis user to its prefix and writes its connection files", () => {
    const { redisAcl, connectionFiles } = renderTenantsConfig({
      tenants: [tenant("acme")],
      shardCount: 64,
      natsUrl: "nats://nats:4222",
      redisUrl: "rediss://redis:6380",
    });
    expect(redisAcl).toBe(
      "user acme on >acme-r resetchannels ~acme:* ~{acme:* +@all -@dangerous +info +cluster|slots +cluster|shards +cluster|info\n",
    );
    expect(Object.keys(connectionFiles)).toEqual(["acme-host.yaml", "acme-client.yaml"]);
    expect(connectionFiles["acme-host.yaml"]).toContain(
      'prefix: acme\nnats:\n  urls: "nats://nats:4222"\n  user: "acme-host"\n  password: "acme-h"\nredis:\n  url: "rediss://redis:6380"\n  username: "acme"\n  password: "acme-r"\n',
    );
    expect(connectionFiles["acme-client.yaml"]).not.toContain("redis:");
  });

  it("refuses bad or repeated names and passwords the files cannot hold", () => {
    const render = (tenants: TenantSpec[]) => () => renderTenantsConfig({ tenants, shardCount: 8 });
    expect(render([])).toThrow(/at least one tenant/);
    expect(render([tenant("Acme")])).toThrow(/Tenant name "Acme"/);
    expect(render([tenant("a"), tenant("a")])).toThrow(/given twice/);
    expect(render([{ ...tenant("a"), redisPassword: 'has"quote' }])).toThrow(/Redis password/);
  });
});
