import { TroupeError } from "@troupe/protocol";

/**
 * Why a model spec could not be turned into a model:
 * `unknown_provider` (not one of the accepted forms), `malformed` (right
 * provider, missing or bad model id or base URL), `missing_api_key` (the
 * provider's key variable is unset or empty).
 */
export type ModelNotConfiguredReason = "unknown_provider" | "malformed" | "missing_api_key";

/**
 * A model spec names no usable model. Not retryable: the spec or the
 * environment must change. Code `model_not_configured`; `details` carries
 * `{ spec, reason, variable? }`.
 *
 * @example
 * ```ts
 * // Model "openai:gpt-4o-mini" needs an API key: set OPENAI_API_KEY.
 * throw new ModelNotConfiguredError("openai:gpt-4o-mini", "missing_api_key", "…", "OPENAI_API_KEY");
 * ```
 */
export class ModelNotConfiguredError extends TroupeError {
  /**
   * @param spec - the model spec as given.
   * @param reason - what is wrong.
   * @param message - a sentence saying what is wrong and how to fix it.
   * @param variable - the environment variable to set, for `missing_api_key`.
   */
  constructor(
    readonly spec: string,
    readonly reason: ModelNotConfiguredReason,
    message: string,
    readonly variable?: string,
  ) {
    super("model_not_configured", message, {
      retryable: false,
      details: { spec, reason, ...(variable === undefined ? {} : { variable }) },
    });
    this.name = "ModelNotConfiguredError";
  }
}
