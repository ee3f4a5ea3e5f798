import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";

/** The web console at `/` and its read routes (issue #16). */
export function registerConsoleRoutes(
  _app: GatewayApp,
  _context: GatewayContext,
  _options: { readonly serveAssets: boolean },
): void {}
