import { JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from "@nats-io/jetstream";
import { streamNames } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { hostSettingsSchema } from "../host/host-options.js";
import { ensureStreams, streamReplicationConfig } from "./ensure-streams.js";

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

describe("streams created by hosts starting together", () => {
  it("treats a refused add as found when the stream exists by then, and rethrows when it does not", async () => {
    const created = new Set<string>();
    const overlap = new JetStreamApiError({
      code: 400,
      err_code: 10065,
      description: "subjects overlap with an existing stream",
    });
    const notFound = new JetStreamApiError({
      code: 404,
      err_code: JetStreamApiCodes.StreamNotFound,
      description: "stream not found",
    });
    let addCalls = 0;
    // Another host wins every race: the stream appears just as this host's add arrives.
    const manager = {
      streams: {
        info: (name: string) =>
          created.has(name)
            ? Promise.resolve({
                config: { name, num_replicas: 1, max_age: 0, duplicate_window: 0 },
              })
            : Promise.reject(notFound),
        add: (config: { name: string }) => {
          addCalls += 1;
          created.add(config.name);
          return Promise.reject(overlap);
        },
        update: () => Promise.resolve({}),
      },
    } as unknown as JetStreamManager;
    const names = streamNames("race");
    const retention = {
      journalRetentionMs: 0,
      eventRetentionMs: 0,
      transcriptRetentionMs: 0,
      duplicateWindowMs: 0,
      deltaRetentionMs: 0,
      claimRetentionMs: 0,
    };
    await ensureStreams(manager, names, retention);
    expect(addCalls).toBe(Object.keys(names).length);

    const refusing = {
      streams: {
        info: () => Promise.reject(notFound),
        add: () => Promise.reject(overlap),
      },
    } as unknown as JetStreamManager;
    await expect(ensureStreams(refusing, names, retention)).rejects.toBe(overlap);
  });
});
