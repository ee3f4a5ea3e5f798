import { TroupeError } from "@troupe/client";
import { GatewayError } from "../http/gateway-error.js";

/**
 * The gateway error for what a `TroupeClient` call threw (issue #16):
 * `invalid_address` / `decode_failed` → 400 `invalid_request` (the session
 * would refuse it; nothing was published), `payload_too_large` → 413
 * `body_too_large`, `timeout` → 504 `timeout`, anything else from Troupe or
 * NATS (`unavailable`: no streams, NATS unreachable, client closed; a publish
 * not acknowledged) → 503 `unavailable`, with the client's sentence.
 *
 * @param error - what was thrown.
 * @returns the error to throw; a {@link GatewayError} passes through.
 */
export function gatewayErrorOf(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (TroupeError.isInstance(error)) {
    switch (error.code) {
      case "invalid_address":
      case "decode_failed":
        return new GatewayError(400, "invalid_request", error.message, error.details);
      case "payload_too_large":
        return new GatewayError(413, "body_too_large", error.message);
      case "timeout":
        return new GatewayError(504, "timeout", error.message);
      default:
        return new GatewayError(503, "unavailable", error.message);
    }
  }
  return new GatewayError(
    503,
    "unavailable",
    `The deployment did not take the request: ${error instanceof Error ? error.message : String(error)}`,
  );
}
