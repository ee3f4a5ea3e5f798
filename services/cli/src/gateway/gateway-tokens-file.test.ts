import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TroupeError } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { readGatewayTokensFile } from "./gateway-tokens-file.js";

async function file(content: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "gateway-tokens-")), "tokens.json");
  await writeFile(path, content);
  return path;
}

describe("troupe gateway --tokens-file (issue #16)", () => {
  it("reads each token with its session prefix and name", async () => {
    const path = await file(
      JSON.stringify([
        { token: "0123456789abcdef-all", name: "ops" },
        { token: "0123456789abcdef-acme", sessionPrefix: "acme-" },
      ]),
    );
    expect(await readGatewayTokensFile(path)).toEqual([
      { token: "0123456789abcdef-all", name: "ops" },
      { token: "0123456789abcdef-acme", sessionPrefix: "acme-" },
    ]);
  });

  it.each([
    ["not JSON", "{tokens", /is not JSON/],
    ["an empty list", "[]", /lists no token/],
    ["a short token", JSON.stringify([{ token: "short" }]), /0\.token: a token has at least 16/],
    [
      "an unknown field",
      JSON.stringify([{ token: "0123456789abcdef", scope: "x" }]),
      /Unrecognized key/,
    ],
  ])("refuses %s with invalid_options, never echoing a token", async (_, content, message) => {
    const path = await file(content);
    const error = await readGatewayTokensFile(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TroupeError);
    expect((error as TroupeError).code).toBe("invalid_options");
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).not.toContain("0123456789abcdef");
  });

  it("names a file it cannot read", async () => {
    const error = await readGatewayTokensFile("/nonexistent/tokens.json").catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(/Cannot read the gateway tokens file \/nonexistent/);
  });
});
