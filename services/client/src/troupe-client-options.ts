/**
 * Credentials for the NATS connection; give one kind.
 *
 * Shape: `{ token?, user?, pass?, credsFile? }`. `credsFile` is the path of a
 * `.creds` file (JWT and NKey seed, NATS decentralized auth); it is read once at
 * connect.
 */
export interface TroupeClientCredentials {
  /** A server token. */
  readonly token?: string;
  /** User name, with `pass`. */
  readonly user?: string;
  /** Password, with `user`. */
  readonly pass?: string;
  /** Path of a `.creds` file. */
  readonly credsFile?: string;
}

/** Options of `TroupeClient.connect`. Every field is optional. */
export interface TroupeClientOptions {
  /**
   * NATS server URL(s). Default, first that is set (issue #13): `TROUPE_NATS_URL`
   * (comma-separated), the running `troupe dev` (its state file
   * `<TROUPE_HOME or ~/.troupe>/dev.json`, while its process lives),
   * `"nats://127.0.0.1:4222"`. See `resolveDeployment`.
   */
  readonly natsUrl?: string | readonly string[];
  /** Credentials: token, user/pass, or a `.creds` file path. Default: none. */
  readonly credentials?: TroupeClientCredentials;
  /**
   * Deployment prefix: stream names are `<PREFIX>_EVENTS`, `<PREFIX>_INBOX`
   * (see `streamNames` of `@troupe/protocol`); default `TROUPE_PREFIX`, else
   * the running `troupe dev`'s, else `"troupe"`.
   */
  readonly prefix?: string;
  /** Connection name shown in NATS monitoring; default `"troupe-client"`. */
  readonly name?: string;
  /** How long connecting may take, in ms; default 5 000 ms. */
  readonly connectTimeoutMs?: number;
}

/** The default connect timeout, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
