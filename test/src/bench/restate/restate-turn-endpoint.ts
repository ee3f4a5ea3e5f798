/**
 * Child-process entry of the Restate side of the agent-turn benchmark: serves
 * the `turn` virtual object (`turn-object.ts`) with the Restate SDK's HTTP/2
 * endpoint handler on 127.0.0.1 and a port the operating system picks, so its
 * CPU is measured apart from the benchmark's. Once listening it prints one line,
 * `restate turn endpoint listening on 127.0.0.1:<port>` (see
 * `endpoint-ready-line.ts`); SIGTERM closes the server and exits 0.
 *
 * Run by `restate-endpoint-process.ts`; the SDK logs at `RESTATE_LOGGING`
 * (that module sets `WARN`, as the Troupe host logs at `warn`).
 */
import { createServer } from "node:http2";
import { createEndpointHandler } from "@restatedev/restate-sdk";
import { formatEndpointReadyLine } from "./endpoint-ready-line.js";
import { turnObject } from "./turn-object.js";

const server = createServer(createEndpointHandler({ services: [turnObject] }));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address === null || typeof address === "string") {
    process.stderr.write("restate turn endpoint: no TCP address\n");
    process.exit(1);
  }
  process.stdout.write(`${formatEndpointReadyLine(address.port)}\n`);
});
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  // Restate keeps HTTP/2 sessions open; do not wait for it to close them.
  setTimeout(() => process.exit(0), 1_000).unref();
});
