import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an HTTP `Authorization` header carries the expected bearer token
 * (`Bearer <token>`, scheme case-insensitive). Compares SHA-256
 * digests in constant time, so neither the token's content nor its length
 * leaks through timing.
 *
 * @param header - the request's `Authorization` header, if any.
 * @param token - the configured token (non-empty).
 * @returns `true` only for `Bearer <token>` exactly.
 */
export function bearerTokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (match === null) return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
