import { describe, expect, it } from "vitest";
import { hostSettingsSchema } from "../host/host-options.js";
import { streamReplicationConfig } from "./ensure-streams.js";

describe("stream replication settings (issue #17)", () => {
  it("creates streams with 1 replica and the servers' placement when nothing is set", () => {
    const settings = hostSettingsSchema.parse({});
    expect(settings.streamReplicas).toBeUndefined();
    expect(streamReplicationConfig(settings)).toEqual({ num_replicas: 1 });
  });

  it("passes the replicas and a partial placement on as JetStream's num_replicas and placement", () => {
    const settings = hostSettingsSchema.parse({
      streamReplicas: 3,
      streamPlacement: { tags: ["ssd", "region:eu"] },
    });
    expect(streamReplicationConfig(settings)).toEqual({
      num_replicas: 3,
      placement: { tags: ["ssd", "region:eu"] },
    });
    expect(
      streamReplicationConfig({ streamReplicas: 5, streamPlacement: { cluster: "east" } }),
    ).toEqual({ num_replicas: 5, placement: { cluster: "east" } });
  });

  it("refuses replicas outside 1–5 and a placement naming neither a cluster nor tags", () => {
    for (const streamReplicas of [0, 6, 2.5]) {
      expect(hostSettingsSchema.safeParse({ streamReplicas }).success).toBe(false);
    }
    expect(hostSettingsSchema.safeParse({ streamPlacement: {} }).success).toBe(false);
    expect(hostSettingsSchema.safeParse({ streamPlacement: { tags: [] } }).success).toBe(false);
    expect(hostSettingsSchema.safeParse({ streamPlacement: { zone: "a" } }).success).toBe(false);
  });

  it("pulls with a 5 000 ms expiry and waits 15 000 ms for JetStream management by default", () => {
    const settings = hostSettingsSchema.parse({});
    expect(settings.pullExpiresMs).toBe(5_000);
    expect(settings.jetStreamApiTimeoutMs).toBe(15_000);
  });
});
