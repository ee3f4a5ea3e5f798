import type { HostServices } from "@troupe/runtime";
import { mediaBucketOf } from "./media-bucket-of.js";
import type { ObjectStoreMediaStoreOptions } from "./object-store-media-store.js";

/**
 * The options of a host's media store: what `agentKinds({ media })`
 * gives, completed from the host. The bucket defaults to `<PREFIX>_MEDIA`, and
 * the replicas and placement of a bucket the host creates to the deployment's
 * `streamReplicas` and `streamPlacement` (`--stream-replicas`, decision 0032),
 * so the bucket is replicated like the streams. A value given in `media` wins.
 *
 * @param media - `agentKinds`' `media` option (bucket, retentionMs, replicas, placement, limits).
 * @param services - the host's stream names and replication.
 * @returns options for `new ObjectStoreMediaStore(js, options)`.
 * @example
 * hostMediaStoreOptions(undefined, { streams: streamNames("troupe"), replication: { streamReplicas: 3 } });
 * // { bucket: "TROUPE_MEDIA", replicas: 3 }
 */
export function hostMediaStoreOptions(
  media: Partial<ObjectStoreMediaStoreOptions> | undefined,
  services: Pick<HostServices, "streams" | "replication">,
): ObjectStoreMediaStoreOptions {
  const replicas = media?.replicas ?? services.replication?.streamReplicas;
  const placement = media?.placement ?? services.replication?.streamPlacement;
  return {
    ...media,
    bucket: media?.bucket ?? mediaBucketOf(services.streams),
    ...(replicas === undefined ? {} : { replicas }),
    ...(placement === undefined ? {} : { placement }),
  };
}
