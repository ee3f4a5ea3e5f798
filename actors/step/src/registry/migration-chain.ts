import { TroupeError } from "@troupe/protocol";

/**
 * One step of a machine's migrations: a persisted xstate snapshot written by
 * version N, returned in the shape of the next version (N+1). Pure: no IO, no
 * clock; throw to refuse a snapshot it cannot convert.
 */
export type MigrationStep = (persistedState: unknown) => unknown;

/**
 * Builds a kind's `migrate` hook from migrations written one version at a
 * time (docs/decisions/0020): `steps[v]` turns a snapshot of version `v` into one of the
 * version after it, in the order `versions` lists them. A snapshot of version
 * `versions[i]` goes through `steps[versions[i]]`, `steps[versions[i + 1]]`, …
 * up to the current version (the last of `versions`).
 *
 * @param versions - every version the kind ever had, oldest first; the last is
 *   the kind's current `version` (e.g. `["1", "2", "3"]`).
 * @param steps - the migration out of each version but the last, by version.
 * @returns a `migrate(persistedState, fromVersion)` hook for `defineActorKind`.
 * @throws TypeError (when called) if a version but the last has no step, or
 *   versions repeat.
 * @throws TroupeError `unknown_machine_version` (from the hook) for a version
 *   not in `versions` — e.g. a snapshot written by a newer host; the host then
 *   leaves the actor's messages waiting instead of misreading it.
 * @example
 * const ledger = defineActorKind({
 *   kind: "ledger",
 *   machine: ledgerV3,
 *   version: "3",
 *   migrate: migrationChain(["1", "2", "3"], {
 *     "1": (s) => renameContextField(s, "sum", "total"),
 *     "2": (s) => ({ ...s, value: s.value === "open" ? "active" : s.value }),
 *   }),
 *   messageSchemas,
 * });
 */
export function migrationChain(
  versions: readonly string[],
  steps: Readonly<Record<string, MigrationStep>>,
): (persistedState: unknown, fromVersion: string) => unknown {
  if (new Set(versions).size !== versions.length) {
    throw new TypeError(`migrationChain: versions repeat (${versions.join(", ")})`);
  }
  for (const version of versions.slice(0, -1)) {
    if (typeof steps[version] !== "function") {
      throw new TypeError(
        `migrationChain: no step out of version ${version} (each version but the last needs one)`,
      );
    }
  }
  const current = versions.at(-1);
  return (persistedState, fromVersion) => {
    const start = versions.indexOf(fromVersion);
    if (start < 0) {
      throw new TroupeError(
        "unknown_machine_version",
        `a snapshot of machine version ${fromVersion} cannot be read: this machine reads versions ` +
          `${versions.join(", ")} (current ${String(current)})`,
        { details: { fromVersion, readableVersions: [...versions] } },
      );
    }
    let state = persistedState;
    for (const version of versions.slice(start, -1)) state = steps[version]!(state);
    return state;
  };
}
