import { InvalidArgumentError, Option, type Command } from "commander";

/** The stream flags of `troupe host` and `troupe dev` (docs/decisions/0032). */
export interface StreamFlags {
  /** `--stream-replicas` / `TROUPE_STREAM_REPLICAS`: replicas of every stream, 1–5. */
  readonly streamReplicas?: number | undefined;
  /** `--stream-cluster` / `TROUPE_STREAM_CLUSTER`: the JetStream cluster the streams are placed on. */
  readonly streamCluster?: string | undefined;
  /** `--stream-tags` / `TROUPE_STREAM_TAGS`: server tags every replica's server carries. */
  readonly streamTags?: readonly string[] | undefined;
}

/** The host settings {@link StreamFlags} give (`streamReplicas`, `streamPlacement`). */
export interface StreamSettings {
  readonly streamReplicas?: number;
  readonly streamPlacement?: { cluster?: string; tags?: string[] };
}

/**
 * Adds the stream replication flags to a command: `--stream-replicas <count>`
 * (`TROUPE_STREAM_REPLICAS`), `--stream-cluster <name>` (`TROUPE_STREAM_CLUSTER`)
 * and `--stream-tags <tags>` (`TROUPE_STREAM_TAGS`, comma-separated).
 * Decision 0032.
 *
 * @param command - `troupe host` or `troupe dev`.
 * @returns the same command.
 */
export function streamOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--stream-replicas <count>",
        "replicas of the deployment's JetStream streams, 1-5 (new streams: default 1; 3 in production, on a 3-server JetStream cluster); applied to existing streams when given",
      )
        .env("TROUPE_STREAM_REPLICAS")
        .argParser(streamReplicasArgument),
    )
    .addOption(
      new Option(
        "--stream-cluster <name>",
        "place the streams' replicas on this JetStream cluster",
      ).env("TROUPE_STREAM_CLUSTER"),
    )
    .addOption(
      new Option(
        "--stream-tags <tags>",
        "place the streams' replicas on servers carrying every one of these server_tags (comma-separated)",
      )
        .env("TROUPE_STREAM_TAGS")
        .argParser(streamTagsArgument),
    );
}

/**
 * Commander argument parser of `--stream-replicas`: a whole number from 1 to 5
 * (JetStream's limit).
 *
 * @throws InvalidArgumentError otherwise (commander prints it with the usage).
 */
export function streamReplicasArgument(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 5) {
    throw new InvalidArgumentError(`expected a whole number from 1 to 5, got "${value}"`);
  }
  return number;
}

/**
 * Commander argument parser of `--stream-tags`: comma-separated tags, trimmed,
 * empty ones dropped.
 *
 * @throws InvalidArgumentError when no tag is left.
 */
export function streamTagsArgument(value: string): string[] {
  const tags = value
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
  if (tags.length === 0) throw new InvalidArgumentError(`expected server tags, got "${value}"`);
  return tags;
}

/**
 * The host settings the flags give; a flag not given sets nothing (existing
 * streams keep their replicas and placement).
 *
 * @example
 * streamSettings({ streamReplicas: 3, streamTags: ["ssd"] });
 * // { streamReplicas: 3, streamPlacement: { tags: ["ssd"] } }
 */
export function streamSettings(flags: StreamFlags): StreamSettings {
  const placement = {
    ...(flags.streamCluster === undefined ? {} : { cluster: flags.streamCluster }),
    ...(flags.streamTags === undefined ? {} : { tags: [...flags.streamTags] }),
  };
  return {
    ...(flags.streamReplicas === undefined ? {} : { streamReplicas: flags.streamReplicas }),
    ...(Object.keys(placement).length === 0 ? {} : { streamPlacement: placement }),
  };
}

/**
 * The flags as environment variables, for the `troupe host` children of `troupe dev`.
 *
 * @returns `TROUPE_STREAM_REPLICAS`, `TROUPE_STREAM_CLUSTER`, `TROUPE_STREAM_TAGS` for the flags given.
 */
export function streamEnvironment(flags: StreamFlags): Record<string, string> {
  return {
    ...(flags.streamReplicas === undefined
      ? {}
      : { TROUPE_STREAM_REPLICAS: String(flags.streamReplicas) }),
    ...(flags.streamCluster === undefined ? {} : { TROUPE_STREAM_CLUSTER: flags.streamCluster }),
    ...(flags.streamTags === undefined ? {} : { TROUPE_STREAM_TAGS: flags.streamTags.join(",") }),
  };
}
