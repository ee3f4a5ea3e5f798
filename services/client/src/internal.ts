/**
 * @troupe/client/internal — NATS helpers the client uses, shared with Troupe's
 * CLI and tests. Everything public is re-exported. Not covered by semantic
 * versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export * from "./connect-nats.js";
export * from "./count-stored-messages.js";
export * from "./is-stream-not-found.js";
export * from "./dev-state.js";
export { splitNatsUrls } from "./resolve-deployment.js";
export { RunTracker, outcomeOf, type RunTrackerStep } from "./run-tracker.js";
export { OpenWaits } from "./open-waits.js";
export {
  followSessionEvents,
  DELTAS_UNREADABLE_GRACE_MS,
  type FollowSessionEventsOptions,
} from "./follow-session-events.js";
