import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import type { GatewayApp } from "../http/gateway-context.js";
import { GatewayError } from "../http/gateway-error.js";

/**
 * Where the built console lives: `services/gateway/console-dist`, found from
 * this module (`src/console/` or `dist/console/`, both two levels down), so
 * it works from the sources, the build and an installed package alike.
 */
export const CONSOLE_DIST_DIR = fileURLToPath(new URL("../../console-dist", import.meta.url));

/** Whether `path` belongs to the API (never answered with the console's page). */
function isApiPath(path: string): boolean {
  return /^\/(api|v1)(\/|$)/.test(path);
}

/**
 * Serves the built console at `/` (docs/decisions/0029): its files, and `index.html`
 * for any other GET that is not under `/api` or `/v1` (the console routes in
 * the browser). Hashed files under `/assets/` are cached for a year,
 * `index.html` is revalidated. Without a build, `/` answers 404 `not_found`
 * naming the build command.
 *
 * @param app - the gateway app (register after the API routes).
 * @param dir - the build folder; default {@link CONSOLE_DIST_DIR}.
 */
export function registerConsoleAssets(app: GatewayApp, dir = CONSOLE_DIST_DIR): void {
  if (!existsSync(`${dir}/index.html`)) {
    app.get("/", () => {
      throw new GatewayError(
        404,
        "not_found",
        "The web console is not built: run `npm run build -w @troupe/console`.",
      );
    });
    return;
  }
  const files = serveStatic({ root: dir });
  const page = serveStatic({ root: dir, path: "index.html" });
  app.use("*", async (c, next) => {
    if (isApiPath(c.req.path) || (c.req.method !== "GET" && c.req.method !== "HEAD")) {
      return next();
    }
    c.header(
      "Cache-Control",
      c.req.path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
    );
    // serve-static is typed for a plain Context; the gateway's carries its variables.
    const plain = c as unknown as Parameters<typeof files>[0];
    return files(plain, async () => {
      const answer = await page(plain, next);
      if (answer instanceof Response) c.res = answer;
    });
  });
}
