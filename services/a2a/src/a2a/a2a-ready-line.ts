import type { A2aServer } from "./a2a-server.js";

/**
 * The line `troupe a2a` prints once it listens: the base URL, the
 * default agent card, each agent's card, and whether a bearer token is
 * required; without one it says the server is bound to loopback only. As
 * JSON: `{ ready: true, url, auth: "bearer" | "none", agents: [{ name, cardUrl, endpoint }] }`.
 *
 * @param server - the running server (only `url`, `agents`, `tokenRequired` are read).
 * @param json - one JSON object instead of text.
 * @returns the line, without a line break.
 */
export function a2aReadyLine(
  server: Pick<A2aServer, "url" | "agents" | "tokenRequired">,
  json: boolean,
): string {
  if (json) {
    const auth = server.tokenRequired ? "bearer" : "none";
    return JSON.stringify({ ready: true, url: server.url, auth, agents: server.agents });
  }
  const auth = server.tokenRequired
    ? "bearer token required"
    : "no token: bound to loopback only, set --token to serve other machines";
  const agents = server.agents.map((agent) => `${agent.name} ${agent.endpoint}`).join(", ");
  return (
    `troupe a2a: serving ${agents} over A2A (${auth}); ` +
    `agent card ${server.url}/.well-known/agent-card.json`
  );
}
