import { AuthorizationError, connect, type NatsConnection } from "@nats-io/transport-node";
import { NatsUnreachableError } from "@troupe/client";
import { natsSecurityOptions, splitNatsUrls } from "@troupe/client/internal";
import type { NatsClientSettings } from "./nats-client-settings.js";

/**
 * Opens a host's NATS connection with the deployment's credentials and TLS
 * (docs/decisions/0033), with the reconnect behaviour `ActorHost.start` uses for a URL
 * (nats.js defaults). The caller owns it: close it after `host.stop()`.
 *
 * @param settings - URLs, credentials, TLS.
 * @param name - connection name shown in NATS monitoring (the host id).
 * @param timeoutMs - connect timeout, in ms; default 3 000 ms.
 * @returns the connection.
 * @throws NatsUnreachableError naming the URLs (redacted) when no server answered or TLS failed.
 * @throws nats.js `AuthorizationError` when the server refused the credentials.
 */
export async function connectHostNats(
  settings: NatsClientSettings,
  name: string,
  timeoutMs = 3_000,
): Promise<NatsConnection> {
  const urls = splitNatsUrls(settings.natsUrl);
  const security = await natsSecurityOptions(settings.credentials, settings.tls);
  try {
    return await connect({
      servers: urls,
      name,
      timeout: timeoutMs,
      noAsyncTraces: true,
      ...security,
    });
  } catch (error) {
    if (error instanceof AuthorizationError) throw error;
    throw new NatsUnreachableError(urls, error);
  }
}
