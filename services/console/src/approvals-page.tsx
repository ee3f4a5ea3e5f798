import { useState } from "react";
import { api } from "./api.js";
import { ErrorLine, Json, When } from "./small-views.js";
import type { PendingApproval } from "./gateway-shapes.js";
import { usePoll } from "./use-poll.js";

/**
 * The fleet-wide approvals inbox (GET /v1/approvals, every 1.5 s): every
 * pending approval of every session the token reaches, approved or denied
 * with POST /v1/sessions/:id/approvals/:toolCallId.
 */
export function ApprovalsPage() {
  const approvals = usePoll(() => api<PendingApproval[]>("/v1/approvals"), 1500);
  const [failure, setFailure] = useState<Error>();
  const [settling, setSettling] = useState<Record<string, string>>({});
  const decide = async (approval: PendingApproval, decision: "approve" | "deny") => {
    setSettling((current) => ({ ...current, [approval.toolCallId]: decision }));
    try {
      await api(
        `/v1/sessions/${encodeURIComponent(approval.sessionId)}/approvals/${encodeURIComponent(approval.toolCallId)}`,
        {
          method: "POST",
          body: {
            decision,
            ...(approval.ownerSessionId !== approval.sessionId
              ? { subagentSessionId: approval.ownerSessionId }
              : {}),
            ...(decision === "approve"
              ? { note: "approved in the console" }
              : { reason: "denied in the console" }),
          },
        },
      );
      setFailure(undefined);
    } catch (error) {
      setFailure(error as Error);
    }
    approvals.refresh();
  };
  return (
    <section>
      <h1>Approvals inbox</h1>
      <ErrorLine error={approvals.error ?? failure} />
      {approvals.data?.length === 0 && <p className="muted">No tool call waits for approval.</p>}
      <ul className="cards" data-testid="approvals">
        {(approvals.data ?? []).map((approval) => (
          <li
            key={`${approval.sessionId}/${approval.toolCallId}`}
            className="card"
            data-testid="approval"
          >
            <div className="row spread">
              <div>
                <b>{approval.tool}</b> in{" "}
                <a href={`#/sessions/${encodeURIComponent(approval.sessionId)}`}>
                  {approval.sessionId}
                </a>
                {approval.ownerSessionId !== approval.sessionId && (
                  <span className="muted"> (subagent {approval.ownerSessionId})</span>
                )}
                <div className="muted small">
                  call {approval.toolCallId} · run {approval.runId} ·{" "}
                  <When iso={approval.requestedAt} />
                </div>
              </div>
              <div className="row">
                <button
                  className="approve"
                  disabled={settling[approval.toolCallId] !== undefined}
                  onClick={() => void decide(approval, "approve")}
                >
                  Approve
                </button>
                <button
                  className="deny"
                  disabled={settling[approval.toolCallId] !== undefined}
                  onClick={() => void decide(approval, "deny")}
                >
                  Deny
                </button>
              </div>
            </div>
            <Json value={approval.arguments} />
          </li>
        ))}
      </ul>
    </section>
  );
}
