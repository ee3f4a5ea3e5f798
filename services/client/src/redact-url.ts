/** What replaces a password (or a lone secret user part) in a redacted URL. */
export const REDACTED = "***";

/**
 * A server URL safe to print or log: the password of its userinfo becomes
 * `***` (`redis://user:***@host:6379`), a userinfo without a password (a NATS
 * token: `nats://s3cret@host`) becomes `***` too. A comma-separated list is
 * redacted item by item; a value that is not a URL is returned unchanged
 * unless it holds an `@`, in which case everything before the last `@` is
 * replaced (better a useless message than a leaked secret). Decision 0033.
 *
 * @param url - e.g. `rediss://app:pw@redis.example:6380/0`.
 * @returns e.g. `rediss://app:***@redis.example:6380/0`.
 * @example
 * redactUrl("nats://alice:pw@127.0.0.1:4222,nats://127.0.0.1:4223")
 * // "nats://alice:***@127.0.0.1:4222,nats://127.0.0.1:4223"
 */
export function redactUrl(url: string): string {
  if (url.includes(",")) return url.split(",").map(redactUrl).join(",");
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@(.*)$/i.exec(url.trim());
  if (match === null) {
    const at = url.lastIndexOf("@");
    return at < 0 ? url : `${REDACTED}${url.slice(at)}`;
  }
  const [, scheme, userinfo = "", rest] = match;
  const colon = userinfo.indexOf(":");
  const safe = colon < 0 ? REDACTED : `${userinfo.slice(0, colon)}:${REDACTED}`;
  return `${scheme}${safe}@${rest}`;
}

/**
 * Every URL of a list, redacted (see {@link redactUrl}).
 *
 * @param urls - server URLs.
 * @returns the same URLs without secrets.
 */
export function redactUrls(urls: readonly string[]): string[] {
  return urls.map(redactUrl);
}
