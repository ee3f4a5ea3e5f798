import {
  AuthorizationError,
  connect,
  credsAuthenticator,
  nkeyAuthenticator,
  type NatsConnection,
  type NodeConnectionOptions,
} from "@nats-io/transport-node";
import { readFile } from "node:fs/promises";
import { NatsUnreachableError } from "./nats-unreachable-error.js";
import { resolveDeployment, splitNatsUrls } from "./resolve-deployment.js";
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  type TroupeClientCredentials,
  type TroupeClientOptions,
  type TroupeClientTls,
} from "./troupe-client-options.js";

/** Pause between reconnect attempts after a lost connection, in ms. */
const RECONNECT_TIME_WAIT_MS = 1_000;

/**
 * Opens the client's NATS connection. Once connected it reconnects forever
 * (`maxReconnectAttempts: -1`, every 1 000 ms), so a server restart does not end
 * a long `events()` iteration; only the first connect can fail. Without
 * `natsUrl` the URL is found as by `resolveDeployment` (`TROUPE_NATS_URL`, the
 * running `troupe dev`, the default).
 *
 * @param options - URLs, credentials, TLS, name and connect timeout (see {@link TroupeClientOptions}).
 * @returns the connection.
 * @throws {@link NatsUnreachableError} naming the URLs (passwords redacted) when no server answered
 *   or the TLS handshake failed.
 * @throws nats.js `AuthorizationError` when a server refused the credentials.
 * @throws the file system's error when a credentials or TLS file cannot be read.
 */
export async function connectNats(options: TroupeClientOptions): Promise<NatsConnection> {
  const urls =
    options.natsUrl === undefined
      ? (await resolveDeployment({})).natsUrls
      : splitNatsUrls(options.natsUrl);
  const security = await natsSecurityOptions(options.credentials, options.tls);
  try {
    return await connect({
      servers: urls,
      name: options.name ?? "troupe-client",
      timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_TIME_WAIT_MS,
      ...security,
    });
  } catch (error) {
    if (error instanceof AuthorizationError) throw error;
    throw new NatsUnreachableError(urls, error);
  }
}

/**
 * The nats.js connect options for credentials and TLS (docs/decisions/0033), shared by
 * the client and Troupe's hosts: `authenticator` for a `.creds` or NKey seed
 * file, `token` / `user` + `pass`, and `tls` with the file paths.
 *
 * @param credentials - one kind of credentials, or none.
 * @param tls - TLS files, or none.
 * @returns options to spread into nats.js `connect()`.
 * @throws the file system's error when a `.creds` or seed file cannot be read.
 */
export async function natsSecurityOptions(
  credentials: TroupeClientCredentials | undefined,
  tls: TroupeClientTls | undefined,
): Promise<Partial<NodeConnectionOptions>> {
  const tlsOptions =
    tls === undefined || Object.values(tls).every((value) => value === undefined)
      ? {}
      : {
          tls: {
            ...(tls.caFile === undefined ? {} : { caFile: tls.caFile }),
            ...(tls.certFile === undefined ? {} : { certFile: tls.certFile }),
            ...(tls.keyFile === undefined ? {} : { keyFile: tls.keyFile }),
          },
        };
  return { ...(await authOptions(credentials)), ...tlsOptions };
}

async function authOptions(
  credentials: TroupeClientCredentials | undefined,
): Promise<Partial<NodeConnectionOptions>> {
  if (credentials === undefined) return {};
  if (credentials.credsFile !== undefined) {
    const creds = await readFile(credentials.credsFile);
    return { authenticator: credsAuthenticator(new Uint8Array(creds)) };
  }
  if (credentials.nkeySeedFile !== undefined) {
    const seed = (await readFile(credentials.nkeySeedFile, "utf8")).trim();
    return { authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)) };
  }
  return {
    ...(credentials.token === undefined ? {} : { token: credentials.token }),
    ...(credentials.user === undefined ? {} : { user: credentials.user }),
    ...(credentials.pass === undefined ? {} : { pass: credentials.pass }),
  };
}
