import { describe, expect, test } from "vitest";
import { ServerBinaryMissingError } from "./server-binary-missing-error.js";
import { serverInstallHint } from "./server-install-hint.js";

describe("serverInstallHint", () => {
  test("names apt-get on Debian and on Ubuntu-based systems", () => {
    const debian = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';
    const mint = 'ID=linuxmint\nID_LIKE="ubuntu debian"\n';

    expect(serverInstallHint({ platform: "linux", osRelease: debian })).toContain(
      "apt-get install -y nats-server redis-server",
    );
    expect(serverInstallHint({ platform: "linux", osRelease: mint })).toContain(
      "apt-get install -y nats-server redis-server",
    );
  });

  test("names Homebrew on macOS", () => {
    expect(serverInstallHint({ platform: "darwin" })).toBe(
      "Install them with: brew install nats-server redis",
    );
  });

  test("links both projects' install pages elsewhere", () => {
    const hint = serverInstallHint({ platform: "linux", osRelease: "ID=fedora\n" });

    expect(hint).toContain("https://docs.nats.io/");
    expect(hint).toContain("https://redis.io/");
  });
});

describe("ServerBinaryMissingError", () => {
  test("names the binary and the ensure script, and is recognised by brand", () => {
    const error = new ServerBinaryMissingError("redis-server");

    expect(error.message).toContain("redis-server was not found");
    expect(error.message).toContain("node infra/ensure-servers.mjs");
    expect(error.code).toBe("server_binary_missing");
    expect(error.retryable).toBe(false);
    expect(ServerBinaryMissingError.isInstance(error)).toBe(true);
    expect(ServerBinaryMissingError.isInstance(new Error("redis-server"))).toBe(false);
  });
});
