import { scheduleMachine } from "@troupe/machines";
import {
  SCHEDULE_INDEX_EFFECT,
  scheduleIndexEntrySchema,
  scheduleMessageSchemas,
} from "@troupe/protocol";
import type { ActorKindDefinition, EffectHandler } from "@troupe/runtime";
import type { JetStreamScheduleIndex } from "./jetstream-schedule-index.js";

/**
 * Version of the schedule machine recorded in its snapshots. Raise it (with a
 * `migrate` hook) when the context shape or state names change.
 */
export const SCHEDULE_MACHINE_VERSION = "1";

/**
 * The schedule actor kind as a pure definition (`schedule/<scheduleId>`):
 * machine, version, message schemas; its events carry the stream
 * time (`withStreamTime`), the machine's "now". What a replay needs; the host
 * adds the `schedule.index` effect with {@link scheduleKind}.
 *
 * @returns the kind definition without effect handlers.
 */
export function scheduleMachineKind(): ActorKindDefinition {
  return {
    kind: "schedule",
    machine: scheduleMachine,
    version: SCHEDULE_MACHINE_VERSION,
    messageSchemas: scheduleMessageSchemas,
    withStreamTime: true,
  };
}

/**
 * The schedule actor kind with its `schedule.index` effect, which records the
 * schedule's listing entry in `index` (at-least-once; stale revisions are
 * dropped by the index).
 *
 * @param index - where listing entries go.
 * @returns the kind definition for `ActorHost.start({ kinds })`.
 */
export function scheduleKind(index: JetStreamScheduleIndex): ActorKindDefinition {
  const record: EffectHandler = async (input) => {
    const entry = scheduleIndexEntrySchema.parse(input);
    return { result: await index.put(entry) };
  };
  return { ...scheduleMachineKind(), effects: { [SCHEDULE_INDEX_EFFECT]: record } };
}
