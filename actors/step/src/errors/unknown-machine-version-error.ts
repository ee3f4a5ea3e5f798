import { TroupeError } from "@troupe/protocol";

/**
 * A stored snapshot was written by a machine version this host cannot read: its
 * kind runs another version and has no `migrate` hook, or the hook threw. The
 * host refuses to process the actor (the step's `refused` outcome) instead of
 * misinterpreting the snapshot: nothing is dead-lettered, nothing is written,
 * the actor's messages wait un-acked in its inbox until a host that reads the
 * snapshot owns the shard (docs/decisions/0022).
 *
 * Retryable: a host of the right version (or this one, upgraded) processes the
 * same messages in order.
 *
 * Shape: `{ code: "unknown_machine_version", address, storedVersion, hostVersion,
 * details: { address, storedVersion, hostVersion, migrateFailed } }`.
 */
export class UnknownMachineVersionError extends TroupeError {
  /**
   * @param address - the actor, `kind/id`.
   * @param storedVersion - the machine version that wrote the snapshot.
   * @param hostVersion - the kind's version on this host.
   * @param migrateError - what the kind's `migrate` hook threw; undefined when
   *   the kind has no hook.
   */
  constructor(
    readonly address: string,
    readonly storedVersion: string,
    readonly hostVersion: string,
    migrateError?: unknown,
  ) {
    const why =
      migrateError === undefined
        ? "the kind has no migrate hook"
        : `its migrate hook failed: ${describe(migrateError)}`;
    super(
      "unknown_machine_version",
      `the snapshot of ${address} was written by machine version ${storedVersion}; this host runs ` +
        `version ${hostVersion} and ${why}. Its messages wait in the inbox: deploy a host that runs ` +
        `version ${storedVersion}, or add a migration from ${storedVersion} to the kind's migrate hook`,
      {
        retryable: true,
        cause: migrateError,
        details: { address, storedVersion, hostVersion, migrateFailed: migrateError !== undefined },
      },
    );
    this.name = "UnknownMachineVersionError";
  }
}

function describe(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : String(error);
    return text.slice(0, 500);
  } catch {
    return "a value that cannot be inspected";
  }
}
