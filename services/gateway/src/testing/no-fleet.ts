import type { FleetIndex } from "../http/gateway-context.js";

/** A fleet index with nothing in it, for gateway tests that do not read the fleet. */
export const noFleet: FleetIndex = {
  ready: () => Promise.resolve(),
  pendingApprovals: () => Promise.resolve([]),
  recentSessions: () => Promise.resolve([]),
  session: () => Promise.resolve(undefined),
  sessionApprovals: () => Promise.resolve([]),
  openQuestions: () => Promise.resolve([]),
  close: () => Promise.resolve(),
};
