import type { RequestHandler } from "express";
import { bearerTokenMatches } from "@troupe/gateway";

/**
 * Express middleware that lets a request through only with
 * `Authorization: Bearer <token>` (RFC 6750); any other gets HTTP 401 with
 * `WWW-Authenticate: Bearer realm="troupe"` and a JSON-RPC error body
 * (`-32001`-style codes are A2A's; a missing credential is a transport
 * matter, so the body uses the JSON-RPC server error `-32000`). The
 * comparison is `bearerTokenMatches` (constant time).
 *
 * @param token - the expected token (non-empty).
 * @returns the middleware.
 */
export function bearerAuth(token: string): RequestHandler {
  return (request, response, next) => {
    const header = request.header("authorization");
    if (bearerTokenMatches(header, token)) {
      next();
      return;
    }
    const match = /^Bearer\s/i.exec(header ?? "");
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
