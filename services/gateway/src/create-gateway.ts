import { OpenAPIHono } from "@hono/zod-openapi";
import type { TroupeClient } from "@troupe/client";
import { MAX_MEDIA_BYTES } from "@troupe/protocol";
import { bodyLimit } from "hono/body-limit";
import { except } from "hono/combine";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { registerChatRoutes } from "./chat/chat-routes.js";
import { registerConsoleRoutes } from "./console/console-routes.js";
import { createFleetIndex } from "./fleet/create-fleet-index.js";
import { accessMiddleware, type GatewayAuth, type GatewayVariables } from "./http/access.js";
import { DEFAULT_STALL_TIMEOUT_MS, DEFAULT_STREAM_BUFFER_CHUNKS } from "./http/bounded-readable.js";
import type {
  ConsoleInspector,
  FleetIndex,
  GatewayApp,
  GatewayContext,
  GatewayLimits,
} from "./http/gateway-context.js";
import { errorResponse, GatewayError } from "./http/gateway-error.js";
import { MEDIA_UPLOAD_PATH, registerMediaRoute } from "./rest/media-route.js";
import { registerRestRoutes } from "./rest/rest-routes.js";

/** Largest request body by default: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** Options of {@link createGateway}; only `client` is required. */
export interface GatewayOptions {
  /** A connected client of the deployment; the gateway does not close it. */
  readonly client: TroupeClient;
  /** Bearer tokens; none → every request may reach every session (listen on loopback only). */
  readonly auth?: GatewayAuth;
  /** Origins allowed to call from a browser (`"*"`: any); default: none (same origin only). */
  readonly corsOrigins?: readonly string[] | "*";
  /** Limits; see {@link GatewayLimits} for the defaults. */
  readonly limits?: Partial<GatewayLimits>;
  /** Redis-backed views of the console (actors, hosts, dead letters); default: none (503). */
  readonly inspector?: ConsoleInspector;
  /** Serve the web console at `/`; default true. */
  readonly console?: boolean;
  /** The fleet index; default: one following the client's deployment. */
  readonly fleet?: FleetIndex;
  /** Where noteworthy lines go; default stderr. */
  readonly log?: (line: string) => void;
}

/** A gateway app and how to release what it holds. */
export interface Gateway {
  /** The Hono app: `app.fetch` answers requests (serve it with `serveGateway` or any adapter). */
  readonly app: GatewayApp;
  /** The context its routes share. */
  readonly context: GatewayContext;
  /** Stops the fleet index (the client stays open). */
  close(): Promise<void>;
}

/**
 * Builds the HTTP gateway of a deployment (docs/decisions/0030): the AI SDK UI message
 * stream at `/api/chat` for `useChat`, REST + SSE under `/v1`, the OpenAPI
 * document at `/v1/openapi.json`, and the web console at `/`. Stateless: every
 * answer comes from NATS (and Redis through `inspector`), so any number of
 * gateways can serve one deployment behind a load balancer.
 *
 * Errors are JSON `{ status, code, message }` (see `GatewayError`).
 *
 * @param options - see {@link GatewayOptions}.
 * @returns the app; nothing listens yet (see `serveGateway`).
 */
export function createGateway(options: GatewayOptions): Gateway {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const limits: GatewayLimits = {
    maxBodyBytes: options.limits?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxMediaBytes: Math.min(options.limits?.maxMediaBytes ?? MAX_MEDIA_BYTES, MAX_MEDIA_BYTES),
    streamBufferChunks: options.limits?.streamBufferChunks ?? DEFAULT_STREAM_BUFFER_CHUNKS,
    stallTimeoutMs: options.limits?.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    keepAliveMs: options.limits?.keepAliveMs ?? 15_000,
  };
  const fleet = options.fleet ?? createFleetIndex(options.client, { log });
  const context: GatewayContext = {
    client: options.client,
    fleet,
    inspector: options.inspector,
    limits,
    log,
  };
  const app: GatewayApp = new OpenAPIHono<{ Variables: GatewayVariables }>({
    defaultHook: (result) => {
      if (!result.success) {
        throw new GatewayError(
          400,
          "invalid_request",
          `The request does not match the API: ${result.error.issues
            .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
            .join("; ")}`,
          result.error.issues,
        );
      }
    },
  });
  app.onError((error, c) => {
    if (error instanceof HTTPException && !(error instanceof GatewayError)) {
      const malformed = /malformed json/i.test(error.message);
      return errorResponse(
        c,
        new GatewayError(
          error.status === 413 ? 413 : 400,
          malformed ? "invalid_json" : error.status === 413 ? "body_too_large" : "invalid_request",
          malformed ? "The request body is not valid JSON." : error.message,
        ),
      );
    }
    return errorResponse(c, error, log);
  });
  app.notFound((c) =>
    errorResponse(c, new GatewayError(404, "not_found", `No route ${c.req.method} ${c.req.path}.`)),
  );
  if (options.corsOrigins !== undefined) {
    const origins = options.corsOrigins;
    const handler = cors({
      origin: origins === "*" ? "*" : [...origins],
      allowHeaders: ["Authorization", "Content-Type", "Last-Event-ID"],
      allowMethods: ["GET", "POST", "OPTIONS"],
      exposeHeaders: ["x-vercel-ai-ui-message-stream"],
      maxAge: 600,
    });
    app.use("/api/*", handler);
    app.use("/v1/*", handler);
  }
  const limitBody = bodyLimit({
    maxSize: limits.maxBodyBytes,
    onError: () => {
      throw new GatewayError(
        413,
        "body_too_large",
        `The request body is larger than ${limits.maxBodyBytes} bytes.`,
      );
    },
  });
  app.use("/api/*", limitBody);
  // POST /v1/media takes raw bytes up to limits.maxMediaBytes (media-route.ts).
  app.use("/v1/*", except(MEDIA_UPLOAD_PATH, limitBody));
  app.use(
    MEDIA_UPLOAD_PATH,
    bodyLimit({
      maxSize: limits.maxMediaBytes,
      onError: () => {
        throw new GatewayError(
          413,
          "body_too_large",
          `The upload is larger than ${limits.maxMediaBytes} bytes.`,
        );
      },
    }),
  );
  const access = accessMiddleware(options.auth);
  app.use("/api/*", access);
  app.use("/v1/*", access);
  registerChatRoutes(app, context);
  registerRestRoutes(app, context);
  registerMediaRoute(app, context);
  registerConsoleRoutes(app, context, { serveAssets: options.console !== false });
  app.doc31("/v1/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Troupe gateway",
      version: "1",
      description:
        "REST + SSE and the AI SDK UI message stream of a Troupe deployment. " +
        "Errors are JSON { status, code, message }.",
    },
  });
  return {
    app,
    context,
    close: async () => {
      if (options.fleet === undefined) await fleet.close();
    },
  };
}
