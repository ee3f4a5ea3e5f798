import { TroupeError } from "@troupe/client";
import { MediaRejectedError } from "@troupe/protocol";
import { GatewayError } from "../http/gateway-error.js";

/**
 * The gateway error for what a `TroupeClient` call threw (docs/decisions/0030):
 * `invalid_address` / `decode_failed` → 400 `invalid_request` (the session
 * would refuse it; nothing was published), `payload_too_large` → 413
 * `body_too_large`, `media_rejected` → 413 `body_too_large` (`too_large`),
 * 415 `unsupported_media_type` (`type_not_allowed`) or 400 `media_rejected`
 * (`empty`, `too_many`, `not_found`, `mismatch`; `details.reason` says which),
 * `timeout` → 504 `timeout`, anything else from Troupe or
 * NATS (`unavailable`: no streams, NATS unreachable, client closed; a publish
 * not acknowledged) → 503 `unavailable`, with the client's sentence.
 *
 * @param error - what was thrown.
 * @returns the error to throw; a {@link GatewayError} passes through.
 */
export function gatewayErrorOf(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (MediaRejectedError.isInstance(error)) {
    switch (error.reason) {
      case "too_large":
        return new GatewayError(413, "body_too_large", error.message, error.details);
      case "type_not_allowed":
        return new GatewayError(415, "unsupported_media_type", error.message, error.details);
      default:
        return new GatewayError(400, "media_rejected", error.message, error.details);
    }
  }
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
