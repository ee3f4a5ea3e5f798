/**
 * A change of the client's NATS connection, as `TroupeClient.onConnectionChange`
 * reports it: `disconnected` when the connection to `server` was
 * lost (the client then reconnects by itself, every 1 000 ms, forever, until it
 * is closed), `reconnected` when a server answers again.
 *
 * Shape: `{ kind: "disconnected" | "reconnected", server }`; `server` is the
 * server's `host:port` as nats.js names it.
 */
export interface ConnectionChange {
  readonly kind: "disconnected" | "reconnected";
  readonly server: string;
}
