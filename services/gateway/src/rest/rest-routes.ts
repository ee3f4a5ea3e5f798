import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";

/** `/v1/...` REST + SSE routes (issue #16). */
export function registerRestRoutes(_app: GatewayApp, _context: GatewayContext): void {}
