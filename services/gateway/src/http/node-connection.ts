import type { Context } from "hono";

/** What `@hono/node-server` passes as `c.env`: the Node response among others. */
interface NodeBindings {
  readonly outgoing?: { destroy(): void };
}

/**
 * Closes the request's TCP connection now (backpressure): what a
 * stream does when its client stopped reading. Erroring the response body is
 * not enough: `@hono/node-server` waits for the socket to drain before it
 * reads the body again, so a client that never reads would never see the
 * error.
 *
 * @param c - the Hono context of the request.
 * @returns a function that destroys the connection (safe to call twice), or
 *   `undefined` without a Node response (another adapter).
 */
export function connectionCloser(c: Context): (() => void) | undefined {
  const outgoing = (c.env as NodeBindings | undefined)?.outgoing;
  return outgoing === undefined ? undefined : () => outgoing.destroy();
}
