import { EMIT_ACTION } from "@troupe/protocol";
import type { HostAction } from "../host-actions/machine-step.js";

/**
 * A run's end event (`run.completed`, `run.failed`, `run.cancelled`) with the
 * transcript length after the run added to its payload: the fork point a
 * `session.fork` at that run uses (docs/decisions/0043). Any other
 * action is returned unchanged.
 *
 * @param action - the end event's emit action.
 * @param transcriptLength - entries in the transcript after the run.
 * @returns the action with `payload.transcriptLength` set.
 */
export function withTranscriptLength(action: HostAction, transcriptLength: number): HostAction {
  if (action.type !== EMIT_ACTION || typeof action.params !== "object" || action.params === null) {
    return action;
  }
  const params = action.params as { type: string; payload: Record<string, unknown> };
  return { ...action, params: { ...params, payload: { ...params.payload, transcriptLength } } };
}
