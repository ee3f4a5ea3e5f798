import { TroupeError } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { bearerTokenMatches, isLoopbackHost } from "@troupe/gateway";
import { mcpListenAddress } from "./mcp-listen-address.js";

describe("where troupe mcp listens", () => {
  it("defaults to 127.0.0.1:7410 without a token", () => {
    expect(mcpListenAddress({})).toEqual({ host: "127.0.0.1", port: 7410 });
  });

  it.each(["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"])(
    "treats %s as loopback",
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
      expect(mcpListenAddress({ host }).host).toBe(host);
    },
  );

  it.each(["0.0.0.0", "192.168.1.4", "::", "example.com"])(
    "refuses %s without a token (invalid_options), accepts it with one",
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
      let caught: unknown;
      try {
        mcpListenAddress({ host });
      } catch (error) {
        caught = error;
      }
      expect(TroupeError.isInstance(caught) && caught.code).toBe("invalid_options");
      expect((caught as Error).message).toContain(`refuses to listen on ${host} without a token`);
      expect(mcpListenAddress({ host, token: "t", port: 0 })).toEqual({
        host,
        port: 0,
        token: "t",
      });
    },
  );

  it("refuses an empty token", () => {
    expect(() => mcpListenAddress({ token: " " })).toThrow(/token is empty/);
  });
});

describe("bearer tokens", () => {
  it("match only Bearer <token> exactly", () => {
    expect(bearerTokenMatches("Bearer s3cret", "s3cret")).toBe(true);
    expect(bearerTokenMatches("bearer s3cret", "s3cret")).toBe(true);
    expect(bearerTokenMatches(undefined, "s3cret")).toBe(false);
    expect(bearerTokenMatches("Bearer s3cre", "s3cret")).toBe(false);
    expect(bearerTokenMatches("Bearer s3cret2", "s3cret")).toBe(false);
    expect(bearerTokenMatches("Basic s3cret", "s3cret")).toBe(false);
    expect(bearerTokenMatches("s3cret", "s3cret")).toBe(false);
  });
});
