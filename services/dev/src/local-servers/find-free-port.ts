import { createServer } from "node:net";

/**
 * Asks the operating system for a TCP port that is free right now on `host`.
 *
 * The port is released before this returns, so another process may take it
 * before the caller binds it; callers that cannot let the server choose its own
 * port (`redis-server` refuses `--port 0`) retry on "address in use".
 *
 * @param host - The address to bind, for example `"127.0.0.1"`.
 * @returns A port number between 1024 and 65535.
 * @throws The `listen` error, for example when `host` is not a local address.
 */
export async function findFreePort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") {
    throw new Error(`Could not read the port chosen on ${host}`);
  }
  return address.port;
}
