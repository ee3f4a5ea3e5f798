import { encodeMessage, TroupeError } from "@troupe/protocol";
import { assign, setup } from "xstate";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UnknownMachineVersionError } from "../errors/unknown-machine-version-error.js";
import { defineActorKind } from "../registry/actor-kind.js";
import { encodeActorRecord, type ActorRecord } from "./actor-record.js";
import { processMessage, type InboxMessage, type StepResult } from "./process-message.js";
import { readStoredState } from "./read-stored-state.js";

// Two versions of one kind (issue #14): v1 keeps `entries: ["1:<n>"]`; v2 keeps
// `log: [{ n, version }]`, accepts `ledger.note` too, and reads v1 snapshots
// through its migrate hook. v1 has no hook: it cannot read a v2 snapshot.
const v1Machine = setup({
  types: {
    context: {} as { entries: string[] },
    events: {} as { type: "ledger.append"; n: number },
  },
}).createMachine({
  id: "ledger",
  context: { entries: [] },
  on: {
    "ledger.append": {
      actions: assign({ entries: ({ context, event }) => [...context.entries, `1:${event.n}`] }),
    },
  },
});

type LogLine = { n: number; version: string };
const v2Machine = setup({
  types: {
    context: {} as { log: LogLine[] },
    events: {} as { type: "ledger.append"; n: number } | { type: "ledger.note"; n: number },
  },
}).createMachine({
  id: "ledger",
  context: { log: [] },
  on: {
    "ledger.append": {
      actions: assign({
        log: ({ context, event }) => [...context.log, { n: event.n, version: "2" }],
      }),
    },
    "ledger.note": {
      actions: assign({
        log: ({ context, event }) => [...context.log, { n: -event.n, version: "2" }],
      }),
    },
  },
});

const appendSchema = z.object({ n: z.number().int() });
const ledgerV1 = defineActorKind({
  kind: "ledger",
  machine: v1Machine,
  version: "1",
  messageSchemas: { "ledger.append": appendSchema },
});

function migrateLedger(persisted: unknown, fromVersion: string): unknown {
  if (fromVersion !== "1") throw new Error(`no migration from ledger version ${fromVersion}`);
  const snapshot = persisted as { context: { entries: string[] } };
  return {
    ...snapshot,
    context: {
      log: snapshot.context.entries.map((entry) => ({ n: Number(entry.slice(2)), version: "1" })),
    },
  };
}
const ledgerV2 = defineActorKind({
  kind: "ledger",
  machine: v2Machine,
  version: "2",
  messageSchemas: { "ledger.append": appendSchema, "ledger.note": appendSchema },
  migrate: migrateLedger,
});
const ledgerV2WithoutHook = { ...ledgerV2, migrate: undefined };

const address = { kind: "ledger", id: "l1" };

function inbox(seq: number, type: string, n: number): InboxMessage {
  const timestampMs = 1_000_000 + seq;
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: `m${seq}`,
    type,
    payload: { n },
    meta: { timestampMs },
  });
  return { seq, subject: "_troupe.inbox.3.ledger.l1", data: bytes, contentType, timestampMs };
}

function committed(result: StepResult) {
  if (result.outcome !== "committed") throw new Error(`expected a commit, got ${result.outcome}`);
  return result;
}

function refused(result: StepResult): UnknownMachineVersionError {
  if (result.outcome !== "refused") throw new Error(`expected a refusal, got ${result.outcome}`);
  return result.error;
}

/** A v2 record of generation 2 (two appends by the v2 machine). */
function v2Record(): ActorRecord {
  const first = committed(
    processMessage(undefined, inbox(1, "ledger.append", 1), { definition: ledgerV2, address }),
  );
  return committed(
    processMessage(first.record, inbox(2, "ledger.append", 2), { definition: ledgerV2, address }),
  ).record;
}

describe("processMessage with a snapshot of another machine version (issue #14)", () => {
  it("refuses a newer snapshot the kind cannot read: no dead letter, no generation, the record untouched", () => {
    const record = v2Record();
    const before = encodeActorRecord(record);
    const result = processMessage(record, inbox(3, "ledger.append", 3), {
      definition: ledgerV1,
      address,
    });
    // Nothing to write, publish or start: only the refusal.
    expect(Object.keys(result).sort()).toEqual(["error", "outcome"]);
    const error = refused(result);
    expect(UnknownMachineVersionError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(UnknownMachineVersionError);
    expect(error.code).toBe("unknown_machine_version");
    expect(error.retryable).toBe(true);
    expect(error.address).toBe("ledger/l1");
    expect(error.storedVersion).toBe("2");
    expect(error.hostVersion).toBe("1");
    expect(error.details).toEqual({
      address: "ledger/l1",
      storedVersion: "2",
      hostVersion: "1",
      migrateFailed: false,
    });
    expect(error.message).toMatch(/written by machine version 2; this host runs version 1/);
    expect(error.message).toMatch(/deploy a host that runs version 2, or add a migration from 2/);
    expect(encodeActorRecord(record)).toEqual(before);
  });

  it("refuses before decoding: a message type only the newer version knows is not dead-lettered", () => {
    const record = v2Record();
    // v1 does not accept `ledger.note`: with a readable snapshot this would be a rejection.
    const note = inbox(3, "ledger.note", 5);
    expect(refused(processMessage(record, note, { definition: ledgerV1, address })).code).toBe(
      "unknown_machine_version",
    );
    const v1Record = committed(
      processMessage(undefined, inbox(1, "ledger.append", 1), { definition: ledgerV1, address }),
    ).record;
    const rejected = committed(processMessage(v1Record, note, { definition: ledgerV1, address }));
    expect(rejected.rejection?.code).toMatch(/^decode_failed/);
  });

  it("still skips a message the newer snapshot already reflects (it is acked, not refused)", () => {
    const record = v2Record();
    expect(
      processMessage(record, inbox(2, "ledger.append", 2), { definition: ledgerV1, address }),
    ).toEqual({ outcome: "skipped", reason: "already_reflected" });
  });

  it("the live snapshot kept by the caller cannot bypass the refusal", () => {
    const first = committed(
      processMessage(undefined, inbox(1, "ledger.append", 1), { definition: ledgerV2, address }),
    );
    // The caller's live state matches the record's generation, but the kind it
    // now runs is v1: the step must not reuse it.
    const result = processMessage(first.record, inbox(2, "ledger.append", 2), {
      definition: ledgerV1,
      address,
      live: first.live,
    });
    expect(refused(result).storedVersion).toBe("2");
  });

  it("a migrate hook that reads the older version: committed, with the new machine version and the migrated state", () => {
    const v1First = committed(
      processMessage(undefined, inbox(1, "ledger.append", 1), { definition: ledgerV1, address }),
    );
    const v1Second = committed(
      processMessage(v1First.record, inbox(2, "ledger.append", 2), {
        definition: ledgerV1,
        address,
        live: v1First.live,
      }),
    );
    expect(v1Second.record.machineVersion).toBe("1");
    const upgraded = committed(
      processMessage(v1Second.record, inbox(3, "ledger.append", 3), {
        definition: ledgerV2,
        address,
        live: v1Second.live,
      }),
    );
    expect(upgraded.record.machineVersion).toBe("2");
    expect(upgraded.record.generation).toBe(3);
    expect(upgraded.record.inboxSeq).toBe(3);
    expect(upgraded.rejection).toBeUndefined();
    expect((upgraded.record.state as { context: unknown }).context).toEqual({
      log: [
        { n: 1, version: "1" },
        { n: 2, version: "1" },
        { n: 3, version: "2" },
      ],
    });
  });

  it("a migrate hook that throws: refused, naming the hook's error (the message is not lost)", () => {
    const record: ActorRecord = { ...v2Record(), machineVersion: "3" };
    const error = refused(
      processMessage(record, inbox(3, "ledger.append", 3), { definition: ledgerV2, address }),
    );
    expect(error.storedVersion).toBe("3");
    expect(error.hostVersion).toBe("2");
    expect(error.details?.["migrateFailed"]).toBe(true);
    expect(error.message).toMatch(/its migrate hook failed: no migration from ledger version 3/);
    expect((error.cause as Error).message).toBe("no migration from ledger version 3");
    // A TroupeError thrown by the hook (the agents' hooks throw one) is refused too.
    const troupeThrowing = {
      ...ledgerV2,
      migrate: () => {
        throw new TroupeError("unknown_machine_version", "cannot read version 3");
      },
    };
    expect(
      refused(
        processMessage(record, inbox(3, "ledger.append", 3), {
          definition: troupeThrowing,
          address,
        }),
      ).message,
    ).toMatch(/cannot read version 3/);
  });

  it("without a hook, even an older snapshot is refused", () => {
    const v1Record = committed(
      processMessage(undefined, inbox(1, "ledger.append", 1), { definition: ledgerV1, address }),
    ).record;
    const error = refused(
      processMessage(v1Record, inbox(2, "ledger.append", 2), {
        definition: ledgerV2WithoutHook,
        address,
      }),
    );
    expect([error.storedVersion, error.hostVersion]).toEqual(["1", "2"]);
    expect(error.message).toMatch(/the kind has no migrate hook/);
  });

  it("readStoredState: a new actor and a snapshot of the kind's version are readable as they are", () => {
    expect(readStoredState(undefined, ledgerV1)).toEqual({ readable: true, state: undefined });
    const record = v2Record();
    expect(readStoredState(record, ledgerV2)).toEqual({ readable: true, state: record.state });
    const unread = readStoredState(record, ledgerV1);
    expect(unread.readable).toBe(false);
  });
});
