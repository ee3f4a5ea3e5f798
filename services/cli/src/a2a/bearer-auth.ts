import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";

/**
 * Express middleware that lets a request through only with
 * `Authorization: Bearer <token>` (RFC 6750); any other gets HTTP 401 with
 * `WWW-Authenticate: Bearer realm="troupe"` and a JSON-RPC error body
 * (`-32001`-style codes are A2A's; a missing credential is a transport
 * matter, so the body uses the JSON-RPC server error `-32000`). The
 * comparison is constant-time over SHA-256 digests, so neither the token nor
 * its length leaks through timing (issue #15).
 *
 * @param token - the expected token (non-empty).
 * @returns the middleware.
 */
export function bearerAuth(token: string): RequestHandler {
  const expected = digest(token);
  return (request, response, next) => {
    const header = request.header("authorization") ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match !== null && timingSafeEqual(digest(match[1] ?? ""), expected)) {
      next();
      return;
    }
    response
      .status(401)
      .set("WWW-Authenticate", 'Bearer realm="troupe"')
      .json({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32000,
          message:
            match === null
              ? "Unauthorized: this A2A server needs Authorization: Bearer <token>."
              : "Unauthorized: the bearer token is not the one this A2A server was started with.",
        },
      });
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
