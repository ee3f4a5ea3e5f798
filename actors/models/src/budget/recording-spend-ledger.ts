import type { BudgetWarning } from "@troupe/protocol";
import type {
  SpendLedger,
  SpendReservationRequest,
  SpendReservationResult,
  SpendSettlement,
} from "./spend-ledger.js";

/**
 * A spend ledger for unit tests (not exported by the package): records what
 * it is asked, answers every reservation with `answer` and every settlement
 * with no warning. The Redis ledger is tested against a real redis-server in
 * `test/src/budget`.
 */
export class RecordingSpendLedger implements SpendLedger {
  readonly reservations: SpendReservationRequest[] = [];
  readonly settlements: SpendSettlement[] = [];
  /** `<sessionId>/<effectId>` of each release. */
  readonly released: string[] = [];

  /** @param answer - the result of every reservation; default `{ kind: "reserved" }`. */
  constructor(private readonly answer: SpendReservationResult = { kind: "reserved" }) {}

  reserve(request: SpendReservationRequest): Promise<SpendReservationResult> {
    this.reservations.push(request);
    return Promise.resolve(this.answer);
  }

  settle(settlement: SpendSettlement): Promise<readonly BudgetWarning[]> {
    this.settlements.push(settlement);
    return Promise.resolve([]);
  }

  release(sessionId: string, effectId: string): Promise<void> {
    this.released.push(`${sessionId}/${effectId}`);
    return Promise.resolve();
  }
}
