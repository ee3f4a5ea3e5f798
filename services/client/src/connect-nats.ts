import {
  AuthorizationError,
  connect,
  credsAuthenticator,
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
 * @param options - URLs, credentials, name and connect timeout (see {@link TroupeClientOptions}).
 * @returns the connection.
 * @throws {@link NatsUnreachableError} naming the URLs when no server answered.
 * @throws nats.js `AuthorizationError` when a server refused the credentials.
 * @throws the file system's error when `credentials.credsFile` cannot be read.
 */
export async function connectNats(options: TroupeClientOptions): Promise<NatsConnection> {
  const urls =
    options.natsUrl === undefined
      ? (await resolveDeployment({})).natsUrls
      : splitNatsUrls(options.natsUrl);
  const auth = await authOptions(options.credentials);
  try {
    return await connect({
      servers: urls,
      name: options.name ?? "troupe-client",
      timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_TIME_WAIT_MS,
      ...auth,
    });
  } catch (error) {
    if (error instanceof AuthorizationError) throw error;
    throw new NatsUnreachableError(urls, error);
  }
}

async function authOptions(
  credentials: TroupeClientCredentials | undefined,
): Promise<Partial<NodeConnectionOptions>> {
  if (credentials === undefined) return {};
  if (credentials.credsFile !== undefined) {
    const creds = await readFile(credentials.credsFile);
    return { authenticator: credsAuthenticator(new Uint8Array(creds)) };
  }
  return {
    ...(credentials.token === undefined ? {} : { token: credentials.token }),
    ...(credentials.user === undefined ? {} : { user: credentials.user }),
    ...(credentials.pass === undefined ? {} : { pass: credentials.pass }),
  };
}
