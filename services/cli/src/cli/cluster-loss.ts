/**
 * How `troupe chat` gives up on a cluster that is gone (docs/decisions/0018): the words
 * it prints and its exit code. Pure: no IO, no clock.
 */

/**
 * Exit code of `troupe chat` when it gave up waiting because the cluster is
 * gone: the NATS connection was lost for {@link LOST_CONNECTION_GRACE_MS}, a
 * request to NATS timed out, no host answered a sent line within
 * {@link NO_HOST_ANSWER_MS}, or no host ever created the streams on that NATS: 4. (0 done, 1 error, 3 waiting on a human.)
 */
export const CLUSTER_GONE_EXIT_CODE = 4;

/** How long a lost NATS connection may stay lost during an answer before chat gives up: 10 000 ms. */
export const LOST_CONNECTION_GRACE_MS = 10_000;

/**
 * How long chat waits for the first event of the session after it sent a line
 * (the host's `message.accepted`, normally within milliseconds) before it
 * says no host answered: 20 000 ms. Once the session has answered, waits are
 * unbounded (a slow tool call, an approval).
 */
export const NO_HOST_ANSWER_MS = 20_000;

/**
 * Why chat gave up on the cluster.
 *
 * Shape: `{ kind: "connection_lost", server, forMs }` (NATS unreachable for
 * `forMs` ms), `{ kind: "timeout", server, operation }` (a NATS request timed
 * out: nats.js's bare `TimeoutError`), or `{ kind: "no_host", forMs }` (NATS
 * took the line but no host answered in `forMs` ms), or `{ kind: "no_streams",
 * server }` (no host has created the deployment's streams on that NATS server).
 */
export type ClusterLoss =
  | { readonly kind: "connection_lost"; readonly server: string; readonly forMs: number }
  | { readonly kind: "timeout"; readonly server: string; readonly operation: string }
  | { readonly kind: "no_host"; readonly forMs: number }
  | { readonly kind: "no_streams"; readonly server: string };

/**
 * The line chat prints when it gives up (without a final line break), saying
 * what happened and what to do.
 *
 * @param loss - why.
 * @param sessionId - the chat's session (the command to continue names it).
 * @returns e.g. `· lost the connection to NATS at 127.0.0.1:4222 (no answer for 10 s): …`.
 */
export function clusterLossMessage(loss: ClusterLoss, sessionId: string): string {
  const resume = `continue with \`npx troupe chat ${sessionId}\``;
  switch (loss.kind) {
    case "connection_lost":
      return (
        `· lost the connection to NATS at ${loss.server} (no answer for ${seconds(loss.forMs)}): ` +
        "the cluster stopped? The session's run goes on when it is back (`npx troupe dev`); " +
        resume
      );
    case "timeout":
      return (
        `· NATS at ${loss.server} did not answer in time (${loss.operation} timed out): ` +
        "the cluster stopped? Start it (`npx troupe dev`), then " +
        resume
      );
    case "no_host":
      return (
        `· no host answered in ${seconds(loss.forMs)}: is \`npx troupe dev\` running? ` +
        "The line is stored in the session's inbox and is answered once a host runs; " +
        resume
      );
    case "no_streams":
      return (
        `· no Troupe host has run against NATS at ${loss.server} (the session streams are ` +
        "missing): start one (`npx troupe dev`, or check `--prefix`), then " +
        resume
      );
  }
}

/**
 * Whether `error` (or one of its causes) is nats.js's request timeout
 * (`TimeoutError`, message `timeout`): what a request gets while the
 * connection is down.
 */
export function isNatsTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth += 1) {
    if (current.name === "TimeoutError" || current.message === "timeout") return true;
    current = current.cause;
  }
  return false;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
