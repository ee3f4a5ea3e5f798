import { TroupeClient } from "@troupe/client";
import { startTelemetry } from "@troupe/host/internal";
import { resolveConnection, type ConnectionFlags } from "@troupe/host/internal";

/**
 * Connects a {@link TroupeClient} to the servers the command's flags, the
 * environment or the running `troupe dev` name, runs `body` and closes it.
 * When the `OTEL_*` environment configures tracing, the OpenTelemetry SDK runs
 * meanwhile (service `troupe-cli`; the client's `send session` spans) and is
 * flushed before it returns (docs/decisions/0036).
 *
 * @throws NatsUnreachableError when NATS does not answer (the message names the URL).
 */
export async function withClient<T>(
  flags: ConnectionFlags,
  body: (client: TroupeClient) => Promise<T>,
): Promise<T> {
  const connection = await resolveConnection(flags);
  if (connection.note !== undefined) process.stderr.write(`note: ${connection.note}\n`);
  const telemetry = startTelemetry({ serviceName: "troupe-cli", exportTimeoutMs: 2_000 });
  try {
    const client = await TroupeClient.connect({
      ...connection.nats,
      prefix: connection.prefix,
      name: "troupe-cli",
    });
    try {
      return await body(client);
    } finally {
      await client.close();
    }
  } finally {
    await telemetry.shutdown();
  }
}
