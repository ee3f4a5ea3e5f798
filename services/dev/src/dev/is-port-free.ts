import { createServer } from "node:net";

/**
 * Whether a TCP port can be bound on `host` right now.
 *
 * @param host - listen address, e.g. `"127.0.0.1"`.
 * @param port - TCP port.
 */
export async function isPortFree(host: string, port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
