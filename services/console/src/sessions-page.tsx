import { useState } from "react";
import { api, newSessionId } from "./api.js";
import { ErrorLine, When } from "./small-views.js";
import type { SessionSummary } from "./gateway-shapes.js";
import { usePoll } from "./use-poll.js";

/** Recent sessions (GET /v1/sessions), refreshed every 2 s, and a way to start one. */
export function SessionsPage() {
  const sessions = usePoll(() => api<SessionSummary[]>("/v1/sessions?limit=50"), 2000);
  const [name, setName] = useState("");
  const open = (id: string) => {
    location.hash = `#/sessions/${encodeURIComponent(id)}`;
  };
  return (
    <section>
      <h1>Sessions</h1>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          open(name.trim() === "" ? newSessionId() : name.trim());
        }}
      >
        <input
          data-testid="new-session-id"
          placeholder="session id (empty: a new one)"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" data-testid="open-session">
          Open chat
        </button>
      </form>
      <ErrorLine error={sessions.error} />
      <table data-testid="sessions">
        <thead>
          <tr>
            <th>Session</th>
            <th>State</th>
            <th>Agent</th>
            <th>Pending approvals</th>
            <th>Open questions</th>
            <th>Last event</th>
          </tr>
        </thead>
        <tbody>
          {(sessions.data ?? []).map((session) => (
            <tr key={session.sessionId} onClick={() => open(session.sessionId)} className="link">
              <td>
                <a href={`#/sessions/${encodeURIComponent(session.sessionId)}`}>
                  {session.sessionId}
                </a>
              </td>
              <td>
                <span className={`pill ${session.state}`}>{session.state}</span>
              </td>
              <td>{session.agent ?? ""}</td>
              <td>{session.pendingApprovals > 0 ? <b>{session.pendingApprovals}</b> : 0}</td>
              <td>{session.openQuestions}</td>
              <td>
                <When iso={session.lastEventAt} />
              </td>
            </tr>
          ))}
          {sessions.data?.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No session yet: open a chat above.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
