import { describe, expect, it } from "vitest";
import { natsServerUrls } from "./nats-server-urls.js";

describe("natsServerUrls", () => {
  it("splits a comma-separated setting into trimmed URLs in their order", () => {
    expect(natsServerUrls(" nats://a:4222 ,nats://b:4223,  nats://c:4224")).toEqual([
      "nats://a:4222",
      "nats://b:4223",
      "nats://c:4224",
    ]);
  });

  it("drops empty entries (a trailing comma, doubled commas, blanks)", () => {
    expect(natsServerUrls("nats://a:4222,, ,nats://b:4222,")).toEqual([
      "nats://a:4222",
      "nats://b:4222",
    ]);
  });

  it("keeps a single URL as one entry", () => {
    expect(natsServerUrls("nats://127.0.0.1:4222")).toEqual(["nats://127.0.0.1:4222"]);
  });

  it("flattens a list whose entries are themselves comma-separated", () => {
    expect(natsServerUrls(["nats://a:1,nats://b:2", " nats://c:3 "])).toEqual([
      "nats://a:1",
      "nats://b:2",
      "nats://c:3",
    ]);
  });

  it("gives no URL for a blank setting", () => {
    expect(natsServerUrls(" , ")).toEqual([]);
    expect(natsServerUrls([])).toEqual([]);
  });
});
