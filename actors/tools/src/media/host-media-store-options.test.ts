import { describe, expect, it } from "vitest";
import { streamNames } from "@troupe/protocol";
import { hostMediaStoreOptions } from "./host-media-store-options.js";
import { mediaBucketConfig } from "./object-store-media-store.js";

const streams = streamNames("troupe");

describe("the media bucket's replication on a host", () => {
  it("follows the deployment's streamReplicas and streamPlacement (decision 0032)", () => {
    const options = hostMediaStoreOptions(undefined, {
      streams,
      replication: { streamReplicas: 3, streamPlacement: { cluster: "east", tags: ["ssd"] } },
    });
    expect(options).toEqual({
      bucket: "TROUPE_MEDIA",
      replicas: 3,
      placement: { cluster: "east", tags: ["ssd"] },
    });
    expect(mediaBucketConfig(options)).toMatchObject({
      storage: "file",
      replicas: 3,
      placement: { cluster: "east", tags: ["ssd"] },
    });
  });

  it("keeps what agentKinds({ media }) gives over the host's settings", () => {
    const options = hostMediaStoreOptions(
      { replicas: 1, bucket: "OTHER_MEDIA", retentionMs: 60_000 },
      { streams, replication: { streamReplicas: 3 } },
    );
    expect(options).toEqual({ bucket: "OTHER_MEDIA", replicas: 1, retentionMs: 60_000 });
    expect(mediaBucketConfig(options)).toMatchObject({ replicas: 1, ttl: 60_000 * 1_000_000 });
  });

  it("creates one replica with no placement when nothing is set (a dev server, a replay)", () => {
    const options = hostMediaStoreOptions(undefined, { streams });
    expect(options).toEqual({ bucket: "TROUPE_MEDIA" });
    const config = mediaBucketConfig(options);
    expect(config.replicas).toBe(1);
    expect(config).not.toHaveProperty("placement");
    expect(config.ttl).toBe(7 * 24 * 3600 * 1000 * 1_000_000);
  });

  it("sets no TTL when retentionMs is 0", () => {
    expect(mediaBucketConfig({ retentionMs: 0 })).not.toHaveProperty("ttl");
  });
});
