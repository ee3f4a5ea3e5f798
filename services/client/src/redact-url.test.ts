import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url.js";

describe("redactUrl", () => {
  it("hides the password of a Redis ACL user and keeps user, host, port and db", () => {
    expect(redactUrl("rediss://app:pa55word@redis.example:6380/2")).toBe(
      "rediss://app:***@redis.example:6380/2",
    );
  });

  it("hides a password-only userinfo (redis://:pw@) and a NATS token (nats://token@)", () => {
    expect(redactUrl("redis://:pa55word@127.0.0.1:6379")).toBe("redis://:***@127.0.0.1:6379");
    expect(redactUrl("nats://s3cr3t-token@127.0.0.1:4222")).toBe("nats://***@127.0.0.1:4222");
  });

  it("redacts each URL of a comma-separated seed list and leaves plain URLs alone", () => {
    expect(redactUrl("nats://a:pw1@h1:4222,nats://h2:4222,tls://b:pw2@h3:4222")).toBe(
      "nats://a:***@h1:4222,nats://h2:4222,tls://b:***@h3:4222",
    );
    expect(redactUrl("redis://127.0.0.1:6379")).toBe("redis://127.0.0.1:6379");
  });

  it("hides everything before the last @ of a value that is not a URL", () => {
    expect(redactUrl("user:pw@host:6379")).toBe("***@host:6379");
    expect(redactUrl("host:6379")).toBe("host:6379");
  });
});
