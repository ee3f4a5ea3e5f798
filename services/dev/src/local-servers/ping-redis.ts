import { connect } from "node:net";

/**
 * Sends one inline `PING` to a Redis server over a fresh TCP connection, so that
 * readiness can be checked without a Redis client library.
 *
 * @param host - Server address.
 * @param port - Server port.
 * @param timeoutMs - Give up after this long, in ms.
 * @returns `true` when the server answered `+PONG`; `false` on any error, on
 *   another answer (such as `-LOADING` while an append-only file is replayed) or
 *   on timeout.
 */
export async function pingRedis(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return await new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    let answer = "";
    const finish = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("error", () => finish(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8");
      if (answer.includes("\r\n")) finish(answer.startsWith("+PONG"));
    });
  });
}
