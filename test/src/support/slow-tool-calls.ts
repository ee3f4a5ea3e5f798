import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { expect } from "vitest";
import { followSession, type SessionEventLog } from "./session-events.js";
import { waitFor } from "./wait-for.js";

/** Entry of the host serving the `courier` agent and its slow tools (fixtures/handover-host.ts). */
export const HANDOVER_HOST = "test/src/fixtures/handover-host.ts";

/** One slow tool call per session, followed through the session's events. */
export interface SlowToolCalls {
  /** The folder the tools count their executions in (`TROUPE_TEST_TOOL_DIR`). */
  readonly toolDir: string;
  readonly logs: ReadonlyMap<string, SessionEventLog>;
  /** Sends `/tool <tool> {"key":<session>,"delayMs":…}` to every session. */
  send(js: JetStreamClient, delayMs: number): Promise<void>;
  /**
   * Sends the same to some sessions, each with its own delay.
   *
   * @param delayMs - the tool's delay for the session at `index` of `sessions`, in ms.
   */
  sendTo(
    js: JetStreamClient,
    sessions: readonly string[],
    delayMs: (index: number) => number,
  ): Promise<void>;
  /** Executions of the session's call so far (lines in its count file). */
  executions(session: string): Promise<number>;
  /** Waits until every call has begun executing. */
  waitStarted(timeoutMs: number): Promise<void>;
  /** Waits until every session ended its run (run.completed or run.failed). */
  waitFinished(timeoutMs: number): Promise<void>;
  /** Per session: how its tool call ended, as seen in its events. */
  outcomes(): Map<
    string,
    { completed: number; outcomeUnknown: number; failed: number; content: string }
  >;
  stop(): void;
}

/**
 * Prepares slow tool calls of `tool` for `sessions` (subscribes to their events first).
 *
 * @param nats - connection for the event subscriptions.
 * @param sessions - session ids; each is also its call's key.
 * @param tool - `slow_charge` (non_idempotent_write) or `slow_note` (idempotent_write).
 */
export async function slowToolCalls(
  nats: NatsConnection,
  sessions: readonly string[],
  tool: "slow_charge" | "slow_note" | ((session: string) => "slow_charge" | "slow_note"),
): Promise<SlowToolCalls> {
  const toolDir = await mkdtemp(join(tmpdir(), "troupe-test-tools-"));
  const toolOf = (session: string) => (typeof tool === "function" ? tool(session) : tool);
  const logs = new Map(sessions.map((session) => [session, followSession(nats, session)]));
  const executions = async (session: string) => {
    const text = await readFile(join(toolDir, `${toolOf(session)}-${session}`), "utf8").catch(
      () => "",
    );
    return text.split("\n").filter((line) => line !== "").length;
  };
  const ended = (log: SessionEventLog) =>
    log.events.some((event) => event.type === "run.completed" || event.type === "run.failed");
  async function sendTo(
    js: JetStreamClient,
    some: readonly string[],
    delayMs: (index: number) => number,
  ): Promise<void> {
    await Promise.all(
      some.map((session, index) =>
        js.publish(
          `troupe.session.${session}.in`,
          new TextEncoder().encode(
            JSON.stringify({
              type: "user.message",
              text: `/tool ${toolOf(session)} ${JSON.stringify({ key: session, delayMs: delayMs(index) })}`,
            }),
          ),
        ),
      ),
    );
  }
  return {
    toolDir,
    logs,
    async send(js, delayMs) {
      await sendTo(js, sessions, () => delayMs);
    },
    sendTo,
    executions,
    async waitStarted(timeoutMs) {
      await waitFor(
        async () => (await Promise.all(sessions.map(executions))).every((count) => count > 0),
        { timeoutMs, description: "every tool call started" },
      );
    },
    async waitFinished(timeoutMs) {
      await waitFor(() => [...logs.values()].every(ended), {
        timeoutMs,
        description: `every run ended (${[...logs.values()].filter(ended).length}/${sessions.length})`,
      });
    },
    outcomes() {
      // Events are at-least-once on core NATS (an outbox re-published after a
      // lost lease reaches subscribers again): count each (actor, seq) once.
      const distinct = (log: SessionEventLog, type: string) => {
        const seen = new Map<string, Record<string, unknown>>();
        for (const event of log.ofType(type)) {
          seen.set(
            `${event.meta.actor}#${event.meta.seq}`,
            event.payload as Record<string, unknown>,
          );
        }
        return [...seen.values()];
      };
      return new Map(
        [...logs].map(([session, log]) => [
          session,
          {
            completed: distinct(log, "tool.completed").length,
            outcomeUnknown: distinct(log, "tool.outcome_unknown").length,
            failed: distinct(log, "tool.failed").length,
            content: distinct(log, "tool.completed")
              .map((payload) => (typeof payload["content"] === "string" ? payload["content"] : ""))
              .join(" | "),
          },
        ]),
      );
    },
    stop() {
      for (const log of logs.values()) log.stop();
    },
  };
}

/**
 * Waits until every slow call finished, then asserts each completed exactly
 * once with the tool's real result (`{ key: <session>, done: true }`), none
 * outcome unknown or failed, and the tool executed once (issue #11).
 *
 * @param calls - the calls started by {@link slowToolCalls}.
 * @param timeoutMs - longest wait for the calls to finish.
 */
export async function expectEveryCallCompletedOnce(
  calls: SlowToolCalls,
  timeoutMs = 45_000,
): Promise<void> {
  await calls.waitFinished(timeoutMs);
  for (const [session, outcome] of calls.outcomes()) {
    expect({ session, ...outcome, content: undefined }).toEqual({
      session,
      completed: 1,
      outcomeUnknown: 0,
      failed: 0,
      content: undefined,
    });
    // The tool's real result, not a placeholder.
    expect(JSON.parse(outcome.content)).toMatchObject({ key: session, done: true });
    expect(await calls.executions(session)).toBe(1);
  }
}
