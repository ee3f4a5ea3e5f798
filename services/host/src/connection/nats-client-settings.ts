import type { TroupeClientCredentials, TroupeClientTls } from "@troupe/client";

/**
 * What nats.js / `TroupeClient.connect` needs besides a name: URLs,
 * credentials, TLS (docs/decisions/0033). Spread it into `TroupeClient.connect({...})`
 * or `connectNats({...})`; `connectHostNats` takes it for hosts.
 */
export interface NatsClientSettings {
  /** The seed URLs, comma-separated (may hold userinfo: print with `redactUrl`). */
  readonly natsUrl: string;
  readonly credentials?: TroupeClientCredentials;
  readonly tls?: TroupeClientTls;
}
