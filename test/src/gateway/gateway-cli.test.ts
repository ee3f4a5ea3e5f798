/**
 * `troupe gateway` and the gateway `troupe dev` starts (issue #16): where they
 * listen, what the startup line and the dev banner say, tokens from a scoped
 * tokens file, and the refusals (a public address without tokens, a bad
 * tokens file), each a clear error and exit code 1.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { runTroupe, startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { startTroupeGateway } from "../support/troupe-gateway-process.js";

describe("troupe gateway and troupe dev's gateway (issue #16)", () => {
  let dev: TroupeDev;
  /** Tokens files of the tests (removed after them: the run checks no folder of it is left). */
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}gateway-`));
    dev = await startTroupeDev(["--hosts", "1"]);
  }, 120_000);

  afterAll(async () => {
    await dev?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it("troupe dev serves the gateway and console, names it in its banner and its state file", async () => {
    const state = await dev.state();
    expect(state.gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(dev.output()).toContain(`web    ${state.gatewayUrl}/`);
    const document = (await (await fetch(`${state.gatewayUrl}/v1/openapi.json`)).json()) as {
      openapi: string;
      info: { title: string };
    };
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.title).toBe("Troupe gateway");
  });

  it("serves with tokens from a tokens file: no token 401, a token of the wrong prefix 403", async () => {
    const tokensFile = join(folder, "tokens.json");
    await writeFile(
      tokensFile,
      JSON.stringify([{ token: "acme-only-token-0123456789", sessionPrefix: "acme-" }]),
    );
    const gateway = await startTroupeGateway(dev.home, ["--tokens-file", tokensFile]);
    try {
      expect(gateway.output()).toMatch(
        /troupe gateway: serving http:\/\/127\.0\.0\.1:\d+ \(bearer tokens required \(1 configured\)\)/,
      );
      const anonymous = await fetch(`${gateway.url}/v1/approvals`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ status: 401, code: "unauthorized" });
      const outside = await fetch(`${gateway.url}/v1/sessions/globex-1/messages`, {
        method: "POST",
        headers: {
          authorization: "Bearer acme-only-token-0123456789",
          "content-type": "application/json",
        },
        body: JSON.stringify({ text: "hello" }),
      });
      expect(outside.status).toBe(403);
      expect(await outside.json()).toMatchObject({ status: 403, code: "forbidden" });
      // The token never appears in what the gateway printed.
      expect(gateway.output()).not.toContain("acme-only-token-0123456789");
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it("refuses a public address without tokens, and a bad tokens file, with exit code 1", async () => {
    const open = await runTroupe(["gateway", "--host", "0.0.0.0", "--port", "0"], {
      home: dev.home,
      timeoutMs: 30_000,
    });
    expect(open.code).toBe(1);
    expect(open.stderr).toMatch(/troupe gateway refuses to listen on 0\.0\.0\.0 without a token/);
    const badFile = join(folder, "tokens.json");
    await writeFile(badFile, JSON.stringify([{ token: "short" }]));
    const bad = await runTroupe(["gateway", "--tokens-file", badFile, "--port", "0"], {
      home: dev.home,
      timeoutMs: 30_000,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`The gateway tokens file ${badFile} is not a list`);
    expect(bad.stderr).not.toContain('"short"');
  });
});
