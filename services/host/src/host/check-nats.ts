import { connect } from "@nats-io/transport-node";
import { NatsUnreachableError } from "@troupe/client";
import { natsServerUrls } from "@troupe/protocol";

/**
 * Connects to NATS once and closes the connection.
 *
 * @param url - NATS URL, e.g. `nats://127.0.0.1:4222`, or several seeds
 *   comma-separated (any one answering is enough).
 * @param timeoutMs - connect timeout, in ms; default 3 000 ms.
 * @throws NatsUnreachableError when no server answers.
 */
export async function checkNats(url: string, timeoutMs = 3_000): Promise<void> {
  const servers = natsServerUrls(url);
  try {
    const connection = await connect({ servers, timeout: timeoutMs, name: "troupe-check" });
    await connection.close();
  } catch (error) {
    throw new NatsUnreachableError(servers, error);
  }
}
