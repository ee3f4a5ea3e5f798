import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OpenAPIHono } from "@hono/zod-openapi";
import { afterAll, describe, expect, it } from "vitest";
import type { GatewayVariables } from "../http/access.js";
import type { GatewayApp } from "../http/gateway-context.js";
import { errorResponse } from "../http/gateway-error.js";
import { CONSOLE_DIST_DIR, registerConsoleAssets } from "./console-assets.js";

function appWith(dir?: string): GatewayApp {
  const app: GatewayApp = new OpenAPIHono<{ Variables: GatewayVariables }>();
  app.onError((error, c) => errorResponse(c, error));
  app.get("/v1/known", (c) => c.json({ ok: true }));
  registerConsoleAssets(app, dir);
  return app;
}

const empty = mkdtempSync(join(tmpdir(), "troupe-console-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe("registerConsoleAssets", () => {
  it("serves the committed build at / with its assets, and index.html for console paths (SPA fallback)", async () => {
    const app = appWith();
    const page = await app.request("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const html = await page.text();
    expect(html).toContain('<div id="root"></div>');
    const script = /src="\.(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await app.request(script!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    const deep = await app.request("/sessions/abc");
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    expect(CONSOLE_DIST_DIR.endsWith(join("services", "gateway", "console-dist"))).toBe(true);
  });

  it("leaves /api and /v1 to the API: known routes answer, unknown ones are not the console's page", async () => {
    const app = appWith();
    expect(await (await app.request("/v1/known")).json()).toEqual({ ok: true });
    const unknown = await app.request("/v1/unknown");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('<div id="root">');
    expect((await app.request("/api/chat/x/stream")).status).toBe(404);
  });

  it("answers / with 404 not_found naming the build command when there is no build", async () => {
    const response = await appWith(empty).request("/");
    expect(response.status).toBe(404);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe("not_found");
    expect(body.message).toContain("npm run build -w @troupe/console");
  });
});
