import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import {
  accessMiddleware,
  assertSessionAccess,
  authConfigured,
  FULL_ACCESS,
  scopeOfToken,
  type GatewayVariables,
} from "./access.js";
import { errorResponse, GatewayError } from "./gateway-error.js";

const auth = {
  tokens: [
    { token: "token-for-everything-0001", name: "ops" },
    { token: "token-for-acme-sessions-01", sessionPrefix: "acme-" },
  ],
};

/** A one-route app behind the middleware that echoes the scope it was given. */
function app(config: Parameters<typeof accessMiddleware>[0]) {
  const hono = new Hono<{ Variables: GatewayVariables }>();
  hono.onError((error, c) => errorResponse(c, error));
  hono.use("*", accessMiddleware(config));
  hono.get("/scope", (c) => c.json(c.var.scope));
  return hono;
}

describe("bearer tokens scoped by session-id prefix (issue #16)", () => {
  it("maps each static token to its prefix, and an unknown one to nothing", async () => {
    expect(await scopeOfToken(auth, "token-for-everything-0001")).toEqual({
      sessionPrefix: "",
      subject: "ops",
    });
    expect(await scopeOfToken(auth, "token-for-acme-sessions-01")).toEqual({
      sessionPrefix: "acme-",
    });
    expect(await scopeOfToken(auth, "token-for-acme-sessions-02")).toBeUndefined();
  });

  it("asks the verifier hook for tokens the list does not know", async () => {
    const withHook = {
      ...auth,
      verify: (token: string) =>
        token.startsWith("jwt.") ? { sessionPrefix: token.slice(4) } : undefined,
    };
    expect(await scopeOfToken(withHook, "jwt.team-b-")).toEqual({ sessionPrefix: "team-b-" });
    expect(await scopeOfToken(withHook, "other")).toBeUndefined();
    expect(authConfigured({ verify: withHook.verify })).toBe(true);
    expect(authConfigured({ tokens: [] })).toBe(false);
    expect(authConfigured(undefined)).toBe(false);
  });

  it("refuses a missing or unknown token with a 401 JSON error and passes a known one", async () => {
    const gateway = app(auth);
    const missing = await gateway.request("/scope");
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ status: 401, code: "unauthorized" });
    const wrong = await gateway.request("/scope", {
      headers: { authorization: "Bearer not-a-token" },
    });
    expect(wrong.status).toBe(401);
    const right = await gateway.request("/scope", {
      headers: { authorization: "bearer token-for-acme-sessions-01" },
    });
    expect(await right.json()).toEqual({ sessionPrefix: "acme-" });
    const query = await gateway.request("/scope?access_token=token-for-everything-0001");
    expect(await query.json()).toEqual({ sessionPrefix: "", subject: "ops" });
  });

  it("gives every request full access when no token is configured", async () => {
    const response = await app(undefined).request("/scope");
    expect(await response.json()).toEqual(FULL_ACCESS);
  });

  it("forbids sessions outside the scope's prefix", () => {
    expect(() => assertSessionAccess({ sessionPrefix: "acme-" }, "acme-1")).not.toThrow();
    const refusal = (() => {
      try {
        assertSessionAccess({ sessionPrefix: "acme-" }, "globex-1");
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).body()).toMatchObject({ status: 403, code: "forbidden" });
    expect(() => assertSessionAccess(FULL_ACCESS, "anything")).not.toThrow();
  });
});
