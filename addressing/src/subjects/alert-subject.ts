import { assertActorId, assertActorKind } from "../address/actor-address.js";
import { INTERNAL_SUBJECT_ROOT } from "./subject-token.js";

/**
 * Where a host publishes an operator alert about one actor (core NATS, stored
 * by no stream: only live subscribers see it; the host also logs it).
 *
 * Token layout: `_troupe.alert.<alert>.<kind>.<id>` (5 tokens). Alerts today:
 * `version` — a host refuses to process an actor whose snapshot was written by
 * a machine version it cannot read; the actor's messages wait in its inbox
 * (docs/decisions/0022). The body is JSON. Follow every alert with
 * `_troupe.alert.>`, version refusals with `_troupe.alert.version.>`.
 *
 * Internal root on purpose: a publish under `troupe.` that no route takes is
 * dead-lettered as unroutable (decision 0012).
 *
 * @param alert - the alert name, e.g. `"version"`.
 * @param kind - a valid actor kind.
 * @param id - a valid actor id.
 * @returns e.g. `"_troupe.alert.version.session.demo-1"`.
 * @throws InvalidAddressError when `kind` or `id` is not valid.
 */
export function alertSubject(alert: "version", kind: string, id: string): string {
  assertActorKind(kind);
  assertActorId(id);
  return `${INTERNAL_SUBJECT_ROOT}.alert.${alert}.${kind}.${id}`;
}

/** Wildcard of every host alert: `_troupe.alert.>`. */
export const ALERT_SUBJECTS = `${INTERNAL_SUBJECT_ROOT}.alert.>`;
