import type { StreamNames } from "@troupe/protocol";

/**
 * The media bucket of the deployment whose streams these are: the inbox
 * stream's name with `_MEDIA` for `_INBOX` — `mediaBucketName(prefix)`, for a
 * host that knows its stream names but not its prefix (`HostServices`).
 *
 * @param streams - the deployment's stream names.
 * @example mediaBucketOf(streamNames("troupe")) // "TROUPE_MEDIA"
 */
export function mediaBucketOf(streams: StreamNames): string {
  return streams.inbox.replace(/_INBOX$/u, "_MEDIA");
}
