import { ActorHost, type ActorHostOptions } from "@troupe/runtime";

/** Options of {@link runHost}. */
export interface RunHostOptions extends ActorHostOptions {
  /** Runs after a graceful stop, before the process exits. */
  readonly onStopped?: () => Promise<void> | void;
}

/**
 * Runs an actor host as the process's main job: starts it, and on SIGTERM or
 * SIGINT shuts it down gracefully (finish in-flight messages, release leases at
 * once), then exits 0. A second signal exits at once with code 130.
 *
 * @param options - servers, kinds and settings, as for `ActorHost.start`, and
 *   `onStopped`, run after the host stopped and before the process exits (e.g. to
 *   stop local servers started for it).
 * @returns the running host.
 * @throws whatever `ActorHost.start` throws (e.g. `ShardCountMismatchError`).
 */
export async function runHost(options: RunHostOptions): Promise<ActorHost> {
  const host = await ActorHost.start(options);
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write(`troupe host ${host.hostId}: ${signal} received, draining\n`);
    host
      .stop()
      .then(() => options.onStopped?.())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`troupe host ${host.hostId}: shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return host;
}
