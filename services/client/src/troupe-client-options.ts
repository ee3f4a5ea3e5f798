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
  /** NATS server URL(s); default `process.env.TROUPE_NATS_URL ?? "nats://127.0.0.1:4222"`. */
  readonly natsUrl?: string | readonly string[];
  /** Credentials: token, user/pass, or a `.creds` file path. Default: none. */
  readonly credentials?: TroupeClientCredentials;
  /**
   * Deployment prefix: stream names are `<PREFIX>_EVENTS`, `<PREFIX>_INBOX`
   * (see `streamNames` of `@troupe/protocol`); default `"troupe"`.
   */
  readonly prefix?: string;
  /** Connection name shown in NATS monitoring; default `"troupe-client"`. */
  readonly name?: string;
  /** How long connecting may take, in ms; default 5 000 ms. */
  readonly connectTimeoutMs?: number;
}

/** The default NATS URL when neither `natsUrl` nor `TROUPE_NATS_URL` is set. */
export const DEFAULT_NATS_URL = "nats://127.0.0.1:4222";
/** The default connect timeout, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/**
 * The server URLs to connect to.
 *
 * @param natsUrl - the option, if any.
 * @param environment - where `TROUPE_NATS_URL` is read; default `process.env`.
 * @returns at least one URL (a comma-separated variable is split).
 */
export function resolveNatsUrls(
  natsUrl: string | readonly string[] | undefined,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const given = natsUrl ?? environment["TROUPE_NATS_URL"] ?? DEFAULT_NATS_URL;
  const list = typeof given === "string" ? given.split(",") : [...given];
  const urls = list.map((url) => url.trim()).filter((url) => url !== "");
  return urls.length === 0 ? [DEFAULT_NATS_URL] : urls;
}
