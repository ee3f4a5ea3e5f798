import type { TroupeClient } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { createGateway } from "../create-gateway.js";
import { noFleet } from "../testing/no-fleet.js";

/** Every `{ pattern, example? }` schema or parameter in the document. */
function patterns(node: unknown, found: { pattern: string; example?: unknown }[] = []) {
  if (Array.isArray(node)) for (const item of node) patterns(item, found);
  else if (typeof node === "object" && node !== null) {
    const record = node as Record<string, unknown>;
    if (typeof record["pattern"] === "string") {
      found.push({ pattern: record["pattern"], example: record["example"] });
    }
    for (const value of Object.values(record)) patterns(value, found);
  }
  return found;
}

describe("/v1/openapi.json (issue #16)", () => {
  it("writes every pattern as a plain ECMA-262 regex its own examples match", async () => {
    const gateway = createGateway({ client: {} as TroupeClient, fleet: noFleet, console: false });
    const document = await (await gateway.app.request("/v1/openapi.json")).json();
    const found = patterns(document);
    expect(found.length).toBeGreaterThan(5);
    for (const { pattern, example } of found) {
      // No regex flags leaked into the string (JSON Schema patterns have none).
      expect(pattern, pattern).not.toMatch(/\/[a-z]*$/);
      const regex = new RegExp(pattern);
      if (typeof example === "string")
        expect(regex.test(example), `${example} ~ ${pattern}`).toBe(true);
    }
    const ids = found.filter(({ example }) => example === "call-2-1");
    expect(ids.length).toBe(2);
    for (const { pattern } of ids) {
      expect(new RegExp(pattern).test("toolu_01 2")).toBe(false);
      expect(new RegExp(pattern).test("functions.search:0")).toBe(true);
    }
  });
});
