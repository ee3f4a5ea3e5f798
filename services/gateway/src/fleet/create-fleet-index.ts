import type { TroupeClient } from "@troupe/client";
import type { FleetIndex } from "../http/gateway-context.js";

/** The fleet index following `client`'s deployment (issue #16). */
export function createFleetIndex(
  _client: TroupeClient,
  _options: { readonly log: (line: string) => void },
): FleetIndex {
  const empty = () => Promise.resolve([]);
  return {
    ready: () => Promise.resolve(),
    pendingApprovals: empty,
    recentSessions: empty,
    session: () => Promise.resolve(undefined),
    sessionApprovals: empty,
    close: () => Promise.resolve(),
  };
}
