import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { GatewayError } from "./gateway-error.js";

/**
 * What a request may reach: the sessions whose id starts with
 * `sessionPrefix` (`""`: every session).
 *
 * Shape: `{ sessionPrefix: string, subject?: string }`; `subject` names the
 * caller in logs (never the token).
 */
export interface AccessScope {
  readonly sessionPrefix: string;
  readonly subject?: string;
}

/** Every session: the scope of a request when no token is configured. */
export const FULL_ACCESS: AccessScope = { sessionPrefix: "" };

/**
 * One static bearer token and what it may reach.
 *
 * Shape: `{ token: string, sessionPrefix?: string (default "": every session), name?: string }`.
 */
export interface TokenGrant {
  readonly token: string;
  readonly sessionPrefix?: string;
  readonly name?: string;
}

/**
 * A verifier hook: given a bearer token, the scope it grants, or `undefined`
 * to refuse it (401). May be async (e.g. a JWT or database check).
 */
export type TokenVerifier = (
  token: string,
) => AccessScope | undefined | Promise<AccessScope | undefined>;

/**
 * How the gateway authenticates requests (docs/decisions/0028): a static list of
 * tokens, a verifier hook, or both (the list is tried first). Neither →
 * every request has {@link FULL_ACCESS}, and the gateway listens on loopback only.
 */
export interface GatewayAuth {
  readonly tokens?: readonly TokenGrant[];
  readonly verify?: TokenVerifier;
}

/** Whether `auth` asks for tokens at all. */
export function authConfigured(auth: GatewayAuth | undefined): boolean {
  return (auth?.tokens?.length ?? 0) > 0 || auth?.verify !== undefined;
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * The scope a bearer token grants under `auth`: the static list first
 * (constant-time comparison of SHA-256 digests), then the verifier.
 *
 * @returns the scope, or `undefined` when the token is unknown.
 */
export async function scopeOfToken(
  auth: GatewayAuth,
  token: string,
): Promise<AccessScope | undefined> {
  const given = digest(token);
  for (const grant of auth.tokens ?? []) {
    if (timingSafeEqual(given, digest(grant.token))) {
      return {
        sessionPrefix: grant.sessionPrefix ?? "",
        ...(grant.name === undefined ? {} : { subject: grant.name }),
      };
    }
  }
  return auth.verify === undefined ? undefined : await auth.verify(token);
}

/** Hono variables the gateway sets on each request. */
export interface GatewayVariables {
  /** What the request may reach (set by {@link accessMiddleware}). */
  scope: AccessScope;
}

/**
 * Authenticates each request under `auth`: `Authorization: Bearer <token>`
 * (or, for `EventSource`, which cannot send headers, the `access_token` query
 * parameter) → `c.var.scope`. No auth configured → {@link FULL_ACCESS}.
 *
 * @throws GatewayError 401 `unauthorized` for a missing or unknown token.
 */
export function accessMiddleware(
  auth: GatewayAuth | undefined,
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  const required = authConfigured(auth);
  return async (c, next) => {
    if (!required || auth === undefined) {
      c.set("scope", FULL_ACCESS);
      return next();
    }
    const header = c.req.header("authorization");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
    const token = match?.[1] ?? c.req.query("access_token");
    if (token === undefined || token === "") {
      throw new GatewayError(
        401,
        "unauthorized",
        "This gateway needs a bearer token (Authorization: Bearer <token>).",
      );
    }
    const scope = await scopeOfToken(auth, token);
    if (scope === undefined) {
      throw new GatewayError(
        401,
        "unauthorized",
        "The bearer token is not valid for this gateway.",
      );
    }
    c.set("scope", scope);
    return next();
  };
}

/**
 * Whether `scope` reaches session `sessionId`.
 *
 * @throws GatewayError 403 `forbidden` when it does not.
 */
export function assertSessionAccess(scope: AccessScope, sessionId: string): void {
  if (!sessionId.startsWith(scope.sessionPrefix)) {
    throw new GatewayError(
      403,
      "forbidden",
      `This token may reach only sessions whose id starts with "${scope.sessionPrefix}".`,
    );
  }
}
