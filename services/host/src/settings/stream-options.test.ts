import { Command } from "commander";
import { describe, expect, it } from "vitest";
import {
  streamEnvironment,
  streamOptions,
  streamReplicasArgument,
  streamSettings,
  streamTagsArgument,
} from "./stream-options.js";

describe("stream replication flags (issue #17)", () => {
  it("accepts 1 to 5 replicas and refuses anything else with the value in the message", () => {
    expect(streamReplicasArgument("3")).toBe(3);
    expect(streamReplicasArgument("1")).toBe(1);
    expect(streamReplicasArgument("5")).toBe(5);
    for (const bad of ["0", "6", "2.5", "three", ""]) {
      expect(() => streamReplicasArgument(bad)).toThrow(`got "${bad}"`);
    }
  });

  it("splits server tags on commas, trimmed, and refuses a value without a tag", () => {
    expect(streamTagsArgument(" ssd, region:eu ,,")).toEqual(["ssd", "region:eu"]);
    expect(() => streamTagsArgument(" , ")).toThrow("expected server tags");
  });

  it("turns the flags into host settings, setting nothing for a flag not given", () => {
    expect(streamSettings({})).toEqual({});
    expect(streamSettings({ streamReplicas: 3 })).toEqual({ streamReplicas: 3 });
    expect(streamSettings({ streamCluster: "east", streamTags: ["ssd"] })).toEqual({
      streamPlacement: { cluster: "east", tags: ["ssd"] },
    });
  });

  it("reads the flags, or TROUPE_STREAM_* when a flag is not given", () => {
    const parse = (argv: string[], env: Record<string, string>) => {
      const saved = { ...process.env };
      Object.assign(process.env, env);
      try {
        const command = streamOptions(new Command("host")).exitOverride();
        command.parse(argv, { from: "user" });
        return command.opts();
      } finally {
        for (const key of Object.keys(env)) {
          if (saved[key] === undefined) delete process.env[key];
          else process.env[key] = saved[key];
        }
      }
    };
    expect(parse(["--stream-replicas", "3", "--stream-tags", "a,b"], {})).toEqual({
      streamReplicas: 3,
      streamTags: ["a", "b"],
    });
    expect(parse([], { TROUPE_STREAM_REPLICAS: "3", TROUPE_STREAM_CLUSTER: "east" })).toEqual({
      streamReplicas: 3,
      streamCluster: "east",
    });
  });

  it("passes the flags to troupe dev's hosts as environment variables", () => {
    expect(
      streamEnvironment({ streamReplicas: 3, streamCluster: "east", streamTags: ["a", "b"] }),
    ).toEqual({
      TROUPE_STREAM_REPLICAS: "3",
      TROUPE_STREAM_CLUSTER: "east",
      TROUPE_STREAM_TAGS: "a,b",
    });
    expect(streamEnvironment({})).toEqual({});
  });
});
