import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import type { TrackedEvent } from "@troupe/client/tasks";
import { compareTaskStreamCursors, parseTaskStreamCursor } from "@troupe/client/tasks";
import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { A2aTaskStream } from "./a2a-task-stream.js";

const SESSION = "s1";
const ref = { sessionId: SESSION, clientMessageId: "c1", taskId: `${SESSION}.c1` };
const sessionActor = `session/${SESSION}`;
const runActor = `run/${SESSION}`;
const toolActor = "tool/s1.r1.call-1";

function envelope(type: string, payload: Record<string, unknown>, actor: string): EventEnvelope {
  return {
    v: 1,
    id: `${actor}:${type}:${JSON.stringify(payload)}`,
    type,
    payload,
    meta: { actor, seq: 1, timestampMs: 1_000 },
  };
}
/** A durable event at events-stream sequence `sequence`. */
const durable = (
  sequence: number,
  type: string,
  payload: Record<string, unknown>,
  actor = sessionActor,
): TrackedEvent => ({
  sequence,
  event: envelope(type, payload, actor),
});
/** A text delta of run r1 at deltas-stream sequence `deltaSequence`, read after durable event `after`. */
const delta = (deltaSequence: number, after: number, text: string): TrackedEvent => ({
  sequence: after,
  deltaSequence,
  event: envelope(
    "run.delta",
    { runId: "r1", modelCallId: "mc1", attempt: 1, kind: "text", text, index: deltaSequence - 1 },
    runActor,
  ),
});

const accepted = durable(1, "message.accepted", {
  messageId: "cm:c1",
  type: "user.message",
  clientMessageId: "c1",
  runId: "r1",
});
const started = durable(2, "run.started", { runId: "r1", messageId: "cm:c1" });
const completed = durable(
  3,
  "run.completed",
  { runId: "r1", text: "It is noon.", usage: {} },
  runActor,
);

/** The answer, as a stream read it live: each delta as it came. */
const live = [
  accepted,
  started,
  delta(1, 2, "It "),
  delta(2, 2, "is "),
  delta(3, 2, "noon."),
  completed,
];
/** The same events read from the start again, the deltas before run.started's neighbour. */
const replayed = [
  accepted,
  delta(1, 1, "It "),
  started,
  delta(2, 2, "is "),
  delta(3, 2, "noon."),
  completed,
];

/** The items a stream sends reading `events`, up to its end. */
function streamOf(
  events: readonly TrackedEvent[],
  after?: string,
  initial = TaskState.TASK_STATE_SUBMITTED,
): StreamResponse[] {
  const stream = new A2aTaskStream({
    ref,
    initial,
    after: after === undefined ? undefined : parseTaskStreamCursor(after),
    now: () => "2026-01-01T00:00:00.000Z",
  });
  const items: StreamResponse[] = [];
  for (const event of events) {
    const step = stream.read(event);
    items.push(...step.items);
    if (step.end) break;
  }
  return items;
}

/** What an item says, compactly: `working`, `+is ` (an append), `=It ` (a replacement), `last+` (the last chunk). */
function describeItem(item: StreamResponse): string {
  const payload = item.payload;
  if (payload?.$case === "statusUpdate")
    return TaskState[payload.value.status!.state].replace("TASK_STATE_", "").toLowerCase();
  if (payload?.$case === "artifactUpdate") {
    const content = payload.value.artifact!.parts[0]!.content;
    const text = content?.$case === "text" ? content.value : "";
    return `${payload.value.lastChunk ? "last" : ""}${payload.value.append ? "+" : "="}${text}`;
  }
  return String(payload?.$case);
}

const cursorOf = (item: StreamResponse): string =>
  (item.payload?.$case === "statusUpdate" || item.payload?.$case === "artifactUpdate"
    ? item.payload.value.metadata?.["troupe/cursor"]
    : undefined) as string;

describe("A2aTaskStream", () => {
  it("streams the state changes, the chunks and the end, each with its cursor", () => {
    const items = streamOf(live);
    expect(items.map((item) => [describeItem(item), cursorOf(item)])).toEqual([
      ["working", "1.0"],
      ["=It ", "2.1"],
      ["+is ", "2.2"],
      ["+noon.", "2.3"],
      ["last+", "3.3.1"],
      ["completed", "3.3"],
    ]);
  });

  it("resumed after any item, sends exactly the items after it, also when the task is final by then", () => {
    const all = streamOf(live);
    for (const [index, item] of all.entries()) {
      for (const events of [live, replayed]) {
        const rest = streamOf(events, cursorOf(item), TaskState.TASK_STATE_COMPLETED);
        expect([...all.slice(0, index + 1), ...rest].map(describeItem)).toEqual(
          all.map(describeItem),
        );
        const cursors = [item, ...rest].map((next) => parseTaskStreamCursor(cursorOf(next)));
        for (let at = 1; at < cursors.length; at++) {
          expect(compareTaskStreamCursors(cursors[at - 1]!, cursors[at]!)).toBeLessThan(0);
        }
        if (events === live) {
          expect(rest.map(cursorOf)).toEqual(all.slice(index + 1).map(cursorOf));
        }
      }
    }
  });

  it("resumed from 0.0, sends the whole stream; after the last cursor, nothing, and ends", () => {
    expect(streamOf(replayed, "0.0").map(describeItem)).toEqual(streamOf(live).map(describeItem));
    const stream = new A2aTaskStream({
      ref,
      initial: TaskState.TASK_STATE_COMPLETED,
      after: parseTaskStreamCursor("3.3"),
    });
    const steps = live.map((event) => stream.read(event));
    expect(steps.flatMap((step) => step.items)).toEqual([]);
    expect(steps.at(-1)?.end).toBe(true);
  });

  it("resumed after the input-required it ended at, goes on once the approval is settled", () => {
    const asked = durable(
      3,
      "tool.approval_requested",
      { toolCallId: "call-1", tool: "send_email", arguments: {}, runId: "r1" },
      toolActor,
    );
    const settled = durable(
      4,
      "tool.approval_settled",
      { toolCallId: "call-1", decision: "approved" },
      toolActor,
    );
    const done = durable(5, "run.completed", { runId: "r1", text: "Sent.", usage: {} }, runActor);
    const first = streamOf([accepted, started, asked, settled, done]);
    expect(first.map(describeItem)).toEqual(["working", "input_required"]);
    const rest = streamOf(
      [accepted, started, asked, settled, done],
      cursorOf(first.at(-1)!),
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    expect(rest.map(describeItem)).toEqual(["working", "last=Sent.", "completed"]);
    expect(rest.map(cursorOf)).toEqual(["4.0", "5.0.1", "5.0"]);
  });
});
