import { api } from "./api.js";
import { ErrorLine, When } from "./small-views.js";
import { usePoll } from "./use-poll.js";

interface DeadLetter {
  sequence: number;
  storedAtMs: number;
  code: string;
  reason: string;
  publicSubject: string;
  actor?: string;
  preview?: string;
}

/** The newest dead letters with their reasons (GET /v1/console/dead-letters, every 5 s). */
export function DeadLettersPage() {
  const letters = usePoll(() => api<DeadLetter[]>("/v1/console/dead-letters?limit=100"), 5000);
  return (
    <section>
      <h1>Dead letters</h1>
      <ErrorLine error={letters.error} />
      {letters.data?.length === 0 && <p className="muted">No dead letter.</p>}
      <table data-testid="dead-letters">
        <thead>
          <tr>
            <th>#</th>
            <th>Stored</th>
            <th>Code</th>
            <th>Reason</th>
            <th>Subject</th>
            <th>Actor</th>
            <th>Body</th>
          </tr>
        </thead>
        <tbody>
          {(letters.data ?? []).map((letter) => (
            <tr key={letter.sequence}>
              <td>{letter.sequence}</td>
              <td>
                <When ms={letter.storedAtMs} />
              </td>
              <td>
                <code>{letter.code}</code>
              </td>
              <td>{letter.reason}</td>
              <td>
                <code>{letter.publicSubject}</code>
              </td>
              <td>{letter.actor ?? ""}</td>
              <td>
                <code>{letter.preview ?? ""}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
