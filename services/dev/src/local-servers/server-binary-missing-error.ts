import { serverSearchDirectories } from "./find-server-binary.js";
import { serverInstallHint } from "./server-install-hint.js";

const brand = Symbol.for("troupe.ServerBinaryMissingError");

/**
 * Thrown when a local server binary (`nats-server`, `redis-server`) is neither on
 * `PATH` nor in {@link serverSearchDirectories}.
 *
 * Shape: `{ code: "server_binary_missing", retryable: false, binaryName, searchedDirectories }`.
 * The message names the install command for this platform (see {@link serverInstallHint}).
 * Not retryable: installing the binary is up to a person or to `infra/ensure-servers.mjs`.
 *
 * @example
 * ```ts
 * try {
 *   await startLocalNatsServer();
 * } catch (error) {
 *   if (ServerBinaryMissingError.isInstance(error)) console.error(error.message);
 * }
 * ```
 */
export class ServerBinaryMissingError extends Error {
  /** Stable machine-readable code. */
  readonly code = "server_binary_missing";
  /** Retrying without installing the binary cannot help. */
  readonly retryable = false;
  /** The binary that was looked for, for example `"nats-server"`. */
  readonly binaryName: string;
  /** Directories searched after `PATH`. */
  readonly searchedDirectories: readonly string[];
  readonly [brand] = true;

  /**
   * @param binaryName - The missing binary's file name.
   * @param options - Standard error options; `cause` is kept.
   */
  constructor(binaryName: string, options?: ErrorOptions) {
    super(
      `${binaryName} was not found on PATH nor in ${serverSearchDirectories.join(", ")}. ` +
        `${serverInstallHint()}, or run "node infra/ensure-servers.mjs".`,
      options,
    );
    this.name = "ServerBinaryMissingError";
    this.binaryName = binaryName;
    this.searchedDirectories = serverSearchDirectories;
  }

  /**
   * Checks by brand rather than `instanceof`, so the check holds across two copies
   * of this package.
   *
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link ServerBinaryMissingError}.
   */
  static isInstance(value: unknown): value is ServerBinaryMissingError {
    return typeof value === "object" && value !== null && brand in value;
  }
}
