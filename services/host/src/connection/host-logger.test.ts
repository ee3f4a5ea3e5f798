import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createHostLogger } from "./host-logger.js";

describe("createHostLogger", () => {
  it("never writes a password, token or URL password of the objects it logs (issue #17)", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createHostLogger(sink);
    logger.info(
      {
        natsUrl: "nats://host:n4ts-secret@127.0.0.1:4222",
        redis: "rediss://app:r3dis-secret@127.0.0.1:6380",
        options: {
          credentials: { user: "host", pass: "pass-secret" },
          redis: { mode: "sentinel", password: "acl-secret", sentinelPassword: "sentinel-secret" },
          token: "token-secret",
        },
      },
      "host starting",
    );
    const output = lines.join("");
    for (const secret of [
      "n4ts-secret",
      "r3dis-secret",
      "pass-secret",
      "acl-secret",
      "sentinel-secret",
      "token-secret",
    ]) {
      expect(output).not.toContain(secret);
    }
    const record = JSON.parse(output) as Record<string, unknown>;
    expect(record).toMatchObject({
      natsUrl: "nats://host:***@127.0.0.1:4222",
      redis: "rediss://app:***@127.0.0.1:6380",
      options: {
        credentials: { user: "host", pass: "***" },
        redis: { mode: "sentinel", password: "***", sentinelPassword: "***" },
        token: "***",
      },
    });
  });
});
