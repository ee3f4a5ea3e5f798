import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Machine-readable codes of the gateway's JSON errors (docs/decisions/0030). Clients
 * branch on `code`; `message` is for people.
 */
export type GatewayErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "body_too_large"
  | "unsupported_media_type"
  | "media_rejected"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "session_not_found"
  | "conflict"
  | "unavailable"
  | "timeout"
  | "internal";

/**
 * The body of every error the gateway answers with.
 *
 * Shape: `{ status: number (HTTP status, 400–599), code: GatewayErrorCode, message: string, details?: unknown }`.
 */
export const errorBodySchema = z
  .object({
    status: z.number().int().min(400).max(599),
    code: z.string().min(1),
    message: z.string(),
    details: z.unknown().optional(),
  })
  .openapi("Error");
/** See {@link errorBodySchema}. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * An error a route throws to answer with a JSON error body
 * (`{ status, code, message, details? }`) and that HTTP status. Anything else
 * thrown becomes a 500 `internal` whose message names no internals.
 */
export class GatewayError extends Error {
  override readonly name = "GatewayError";

  /**
   * @param status - HTTP status, 400–599.
   * @param code - see {@link GatewayErrorCode}.
   * @param message - a sentence for people.
   * @param details - optional JSON details (e.g. zod issues).
   */
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: GatewayErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** The JSON body of this error. */
  body(): ErrorBody {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/**
 * Answers with the JSON body of `error` (a {@link GatewayError}, else a 500
 * `internal`).
 *
 * @param c - the Hono context.
 * @param error - what was thrown.
 * @param log - told of unexpected errors (with the request's method and path).
 */
export function errorResponse(c: Context, error: unknown, log?: (line: string) => void): Response {
  if (error instanceof GatewayError) return c.json(error.body(), error.status);
  log?.(`gateway: ${c.req.method} ${c.req.path} failed: ${String(error)}`);
  const internal = new GatewayError(500, "internal", "The gateway failed to answer this request.");
  return c.json(internal.body(), 500);
}
