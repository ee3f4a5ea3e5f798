import type { z } from "@hono/zod-openapi";
import { errorBodySchema } from "../http/gateway-error.js";

/** The bearer scheme every `/v1` route names in the OpenAPI document. */
export const BEARER_SECURITY = [{ bearer: [] }];

/** A JSON body or answer of `schema` in a route definition. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

/** The error answers every route documents. */
export const errorResponses = {
  400: json(errorBodySchema, "invalid_request, invalid_json: the request does not match the API"),
  401: json(errorBodySchema, "unauthorized: missing or unknown bearer token"),
  403: json(errorBodySchema, "forbidden: the token does not reach this session"),
  413: json(errorBodySchema, "body_too_large"),
  503: json(errorBodySchema, "unavailable: NATS, the streams or the fleet index are not there yet"),
} as const;
