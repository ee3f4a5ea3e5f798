import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";

/** `/api/chat` routes for the AI SDK's `useChat` (issue #16). */
export function registerChatRoutes(_app: GatewayApp, _context: GatewayContext): void {}
