import type { ClientMediaOptions } from "./client-media.js";
/**
 * Credentials for the NATS connection; give one kind.
 *
 * Shape: `{ token?, user?, pass?, nkeySeedFile?, credsFile? }`. `credsFile` is
 * the path of a `.creds` file (JWT and NKey seed, NATS decentralized auth);
 * `nkeySeedFile` the path of a file holding a user NKey seed (`SU…`, as
 * `nk -gen user` writes it). Files are read once at connect. Secrets are never
 * logged (docs/decisions/0033).
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
  /** Path of a file holding a user NKey seed (`SU…`). */
  readonly nkeySeedFile?: string;
}

/**
 * TLS for the NATS connection (docs/decisions/0033): PEM file paths. `caFile` trusts a
 * private CA; `certFile` + `keyFile` present a client certificate (servers
 * with `verify: true`). Giving any field turns TLS on; a `tls://` URL does too.
 */
export interface TroupeClientTls {
  /** PEM file of the CA(s) that signed the server's certificate. */
  readonly caFile?: string;
  /** PEM file of the client certificate, with `keyFile`. */
  readonly certFile?: string;
  /** PEM file of the client certificate's private key, with `certFile`. */
  readonly keyFile?: string;
}

/** Options of `TroupeClient.connect`. Every field is optional. */
export interface TroupeClientOptions {
  /**
   * NATS server URL(s). Default, first that is set (docs/decisions/0019): `TROUPE_NATS_URL`
   * (comma-separated), the running `troupe dev` (its state file
   * `<TROUPE_HOME or ~/.troupe>/dev.json`, while its process lives),
   * `"nats://127.0.0.1:4222"`. See `resolveDeployment`.
   */
  readonly natsUrl?: string | readonly string[];
  /** Credentials: token, user/pass, an NKey seed file or a `.creds` file path. Default: none. */
  readonly credentials?: TroupeClientCredentials;
  /** TLS files (CA, client certificate and key); default: none (plain TCP unless a `tls://` URL). */
  readonly tls?: TroupeClientTls;
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
  /**
   * Media limits checked before an upload or a send (docs/decisions/0045): `maxMediaBytes`
   * (default and ceiling 20 MiB), `allowedMediaTypes`, `maxAttachments` (default
   * 16), and `retentionMs` / `replicas` of the media bucket if this client creates it.
   */
  readonly media?: ClientMediaOptions;
}

/** The default connect timeout, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
