import { COMPACTION_INSTRUCTIONS_MARKER, defineAgent, ScriptedModel } from "@troupe/agents";
import type { ScriptedRequest } from "@troupe/agents";
import { RedisKeys } from "@troupe/protocol/internal";
import { RedisSnapshotStore } from "@troupe/runtime/internal";
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { turnGoals } from "../bench/turns/turn-goals.js";

// Issue #19, "Must show": 2,000 messages in one session with a small token
// budget. The prompt stays under the budget at every model call, and the work
// of message 2,000 does not grow past the turn benchmark's long-session goal
// (≤ 1.15× the early messages). Speed is not asserted here (the benchmark
// `bench:turns` measures it, measure-long-session.ts): the test asserts
// deterministic proxies of the processing cost — characters of each prompt,
// entries a model call reads (the prompt's messages), model calls per message,
// and the bytes of the run actor's stored snapshot.

const MESSAGES = 2_000;
/** Messages per measured window: many compaction cycles, so where a cycle starts hardly counts. */
const WINDOW = 200;
const MAX_PROMPT_TOKENS = 300;
const KEEP_RECENT_TOKENS = 100;

/** What the scripted model saw in one call. */
interface SeenCall {
  readonly message: number;
  readonly summarising: boolean;
  /** Characters of the system text and every message's text. */
  readonly promptCharacters: number;
  /** Messages of the prompt besides the system message. */
  readonly messages: number;
}

const contentText = (content: ScriptedRequest["messages"][number]["content"]): string =>
  typeof content === "string"
    ? content
    : content.map((part) => ("text" in part ? String(part.text) : JSON.stringify(part))).join("");

describe("a 2,000-message conversation with a small token budget (issue #19)", () => {
  let deployment: TestDeployment;
  let current = 0;
  const calls: SeenCall[] = [];

  beforeAll(async () => {
    const model = new ScriptedModel((request) => {
      const system = request.messages.filter((message) => message.role === "system");
      const rest = request.messages.filter((message) => message.role !== "system");
      const summarising = system.some((message) =>
        contentText(message.content).includes(COMPACTION_INSTRUCTIONS_MARKER),
      );
      calls.push({
        message: current,
        summarising,
        promptCharacters: request.messages.reduce(
          (sum, message) => sum + contentText(message.content).length,
          0,
        ),
        messages: rest.length,
      });
      if (summarising) return { text: "Summary: numbered messages, each echoed back." };
      const last = rest.at(-1);
      return { text: `echo ${last === undefined ? "" : contentText(last.content)}` };
    });
    const agent = defineAgent({
      name: "long",
      instructions: "Echo the user.",
      model,
      context: { maxPromptTokens: MAX_PROMPT_TOKENS, keepRecentTokens: KEEP_RECENT_TOKENS },
    });
    deployment = await createTestDeployment({
      agents: agent,
      prefix: "longconv",
      servers: { dataDirPrefix: testRunMarker() },
    });
  }, 60_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  it("keeps every prompt under budget and message 2,000 as cheap as the early ones", async () => {
    const sessionId = "long-1";
    const snapshots = new RedisSnapshotStore(
      deployment.redis,
      new RedisKeys(deployment.prefix, deployment.shardCount),
    );
    const runSnapshotBytes = async () => {
      const stored = await snapshots.load(`run/${sessionId}`);
      return stored === undefined ? 0 : JSON.stringify(stored.record.state).length;
    };
    const snapshotBytes: Record<number, number> = {};
    let compactions = 0;
    for (let n = 1; n <= MESSAGES; n += 1) {
      current = n;
      const outcome = await deployment.sendAndWait(sessionId, `message ${n}`, {
        timeoutMs: 30_000,
      });
      expect(outcome.status).toBe("completed");
      compactions += outcome.events.filter((event) => event.type === "session.compacted").length;
      if (n === WINDOW || n === MESSAGES) snapshotBytes[n] = await runSnapshotBytes();
    }
    const last = await deployment.sendAndWait(sessionId, "last one");
    expect(last).toMatchObject({ status: "completed", text: "echo last one" });

    // Every answering call's prompt is under budget (4 characters per token, the
    // estimate's own rule, which counts each entry's framing on top).
    const answering = calls.filter((call) => !call.summarising);
    const largest = Math.max(...answering.map((call) => call.promptCharacters));
    expect(largest).toBeLessThanOrEqual(MAX_PROMPT_TOKENS * 4);
    expect(answering).toHaveLength(MESSAGES + 1);

    // The session compacted again and again, each summary once (and nothing else).
    const summarising = calls.filter((call) => call.summarising).length;
    expect(compactions).toBeGreaterThan(MESSAGES / 50);
    expect(compactions).toBe(summarising);

    // Message 2,000 costs what the messages after the first compaction cost: the same
    // prompt size and entries read, the same model calls per message, within the goal.
    const window = (from: number) =>
      calls.filter((call) => call.message >= from && call.message < from + WINDOW);
    const firstSteady = calls.find((call) => call.summarising)!.message + 1;
    const early = window(firstSteady);
    const late = window(MESSAGES - WINDOW + 1);
    const mean = (list: SeenCall[], pick: (call: SeenCall) => number) =>
      list.reduce((sum, call) => sum + pick(call), 0) / list.length;
    const ratio =
      mean(late, (call) => call.promptCharacters) / mean(early, (call) => call.promptCharacters);
    process.stderr.write(
      `long-conversation: ${compactions} compactions; prompt characters, messages ${firstSteady}–${firstSteady + WINDOW - 1}: ${mean(early, (c) => c.promptCharacters).toFixed(0)}, ` +
        `messages ${MESSAGES - WINDOW + 1}–${MESSAGES}: ${mean(late, (c) => c.promptCharacters).toFixed(0)} (×${ratio.toFixed(3)}); ` +
        `run snapshot bytes ${JSON.stringify(snapshotBytes)}\n`,
    );
    expect(ratio).toBeLessThanOrEqual(turnGoals.longSession.maxRatio);
    expect(Math.max(...late.map((call) => call.messages))).toBeLessThanOrEqual(
      Math.max(...early.map((call) => call.messages)),
    );
    expect(late.length / WINDOW).toBeLessThanOrEqual((early.length / WINDOW) * 1.15);
    // The run actor's snapshot does not grow with the conversation (digits of counters aside).
    expect(snapshotBytes[MESSAGES]! - snapshotBytes[WINDOW]!).toBeLessThanOrEqual(16);
  }, 600_000);
});
