import { describe, expect, it } from "vitest";
import { resolveNatsUrls } from "./troupe-client-options.js";

describe("resolveNatsUrls", () => {
  it("prefers the option, then TROUPE_NATS_URL (comma-separated), then the local default", () => {
    expect(resolveNatsUrls(["nats://a:1"], { TROUPE_NATS_URL: "nats://b:2" })).toEqual([
      "nats://a:1",
    ]);
    expect(resolveNatsUrls(undefined, { TROUPE_NATS_URL: "nats://b:2, nats://c:3" })).toEqual([
      "nats://b:2",
      "nats://c:3",
    ]);
    expect(resolveNatsUrls(undefined, {})).toEqual(["nats://127.0.0.1:4222"]);
  });
});
