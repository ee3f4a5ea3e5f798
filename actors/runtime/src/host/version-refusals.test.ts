import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import { ManualClock, UnknownMachineVersionError } from "@troupe/step";
import {
  REFUSAL_RECORD_TTL_MS,
  VersionRefusals,
  type RefusedActorRecord,
  type VersionRefusalAlert,
} from "./version-refusals.js";

function setUp() {
  const logged: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      logged.push({ level, fields, message });
    };
  const logger = { error: at("error"), info: at("info"), warn: at("warn"), debug: at("debug") };
  const published: { subject: string; body: string }[] = [];
  const records = new Map<string, RefusedActorRecord>();
  const clock = new ManualClock(1_000_000);
  const refusals = new VersionRefusals(
    "host-1",
    logger as unknown as Logger,
    clock,
    (subject, body) => published.push({ subject, body: new TextDecoder().decode(body) }),
    {
      save: (actor, record) => Promise.resolve(records.set(actor, record)),
      remove: (actor) => Promise.resolve(records.delete(actor)),
    },
  );
  return { refusals, logged, published, records, clock };
}

const address = { kind: "ledger", id: "x" };
const error = new UnknownMachineVersionError("ledger/x", "2", "1");

describe("VersionRefusals (issue #14)", () => {
  it("each refused attempt is counted, logged at error level, alerted and recorded; processing clears it", () => {
    const { refusals, logged, published, records, clock } = setUp();
    refusals.refused({ address, error, seq: 7, waitingMessages: 3, nextRetryInMs: 1000 });
    clock.advance(1000);
    refusals.refused({ address, error, seq: 7, waitingMessages: 4, nextRetryInMs: 2000 });

    expect(refusals.report).toEqual({
      total: 2,
      actors: [
        {
          actor: "ledger/x",
          storedVersion: "2",
          hostVersion: "1",
          sinceMs: 1_000_000,
          refusals: 2,
          waitingMessages: 4,
          nextRetryInMs: 2000,
        },
      ],
    });
    const errors = logged.filter((line) => line.level === "error");
    expect(errors).toHaveLength(2);
    expect(errors[1]?.message).toBe(
      "refusing to process ledger/x: its snapshot is machine version 2, this host runs 1; " +
        "its messages wait in the inbox (deploy a host that runs version 2, or add a migration)",
    );
    expect(errors[1]?.fields).toMatchObject({ actor: "ledger/x", seq: 7, refusals: 2 });
    expect(published.map((alert) => alert.subject)).toEqual([
      "_troupe.alert.version.ledger.x",
      "_troupe.alert.version.ledger.x",
    ]);
    const alert = JSON.parse(published[1]!.body) as VersionRefusalAlert;
    expect(alert).toMatchObject({
      type: "actor.refused",
      hostId: "host-1",
      actor: "ledger/x",
      seq: 7,
      refusals: 2,
      waitingMessages: 4,
      nextRetryInMs: 2000,
      atMs: 1_001_000,
      error: { code: "unknown_machine_version", retryable: true },
    });
    expect(records.get("ledger/x")).toEqual({
      hostId: "host-1",
      storedVersion: "2",
      hostVersion: "1",
      refusals: 2,
      waitingMessages: 4,
      sinceMs: 1_000_000,
      expiresAtMs: 1_001_000 + REFUSAL_RECORD_TTL_MS,
    });

    refusals.resolved("ledger/x", "processed");
    expect(refusals.report).toEqual({ total: 2, actors: [] });
    expect(records.size).toBe(0);
    expect(logged.at(-1)).toMatchObject({
      level: "info",
      message: "actor processed again after a version refusal",
    });
  });

  it("a failing alert publish is logged, never thrown", () => {
    const clock = new ManualClock(0);
    const warnings: string[] = [];
    const logger = {
      error: () => undefined,
      warn: (_fields: unknown, message: string) => warnings.push(message),
    };
    const refusals = new VersionRefusals("host-1", logger as unknown as Logger, clock, () => {
      throw new Error("connection closed");
    });
    refusals.refused({ address, error, seq: undefined, waitingMessages: 0, nextRetryInMs: 1000 });
    expect(refusals.report.total).toBe(1);
    expect(warnings).toEqual(["could not publish the alert"]);
  });
});
