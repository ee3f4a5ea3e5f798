import { UnknownMachineVersionError } from "../errors/unknown-machine-version-error.js";
import type { ActorKindDefinition } from "../registry/actor-kind.js";
import type { ActorRecord } from "./actor-record.js";

/** What {@link readStoredState} found: the state to restore, or why it cannot be read. */
export type StoredState =
  | { readonly readable: true; readonly state: unknown }
  | { readonly readable: false; readonly error: UnknownMachineVersionError };

/**
 * The persisted xstate state of `record` in the shape `definition`'s machine
 * reads: as stored when its version is the kind's, else what the kind's
 * `migrate(state, fromVersion)` returns. Pure (the hook must be); never throws.
 *
 * @param record - the stored generation; undefined for a new actor (readable,
 *   no state).
 * @param definition - the kind this host runs.
 * @returns `{ readable: true, state }`, or `{ readable: false, error }` with an
 *   {@link UnknownMachineVersionError} when the kind has no `migrate` hook or
 *   the hook threw (docs/decisions/0022).
 */
export function readStoredState(
  record: ActorRecord | undefined,
  definition: ActorKindDefinition,
): StoredState {
  if (record === undefined || record.machineVersion === definition.version) {
    return { readable: true, state: record?.state };
  }
  const { address, machineVersion } = record;
  if (definition.migrate === undefined) {
    return {
      readable: false,
      error: new UnknownMachineVersionError(address, machineVersion, definition.version),
    };
  }
  if (record.state === undefined) return { readable: true, state: undefined };
  try {
    return { readable: true, state: definition.migrate(record.state, machineVersion) };
  } catch (error) {
    return {
      readable: false,
      error: new UnknownMachineVersionError(
        address,
        machineVersion,
        definition.version,
        error ?? "undefined",
      ),
    };
  }
}
