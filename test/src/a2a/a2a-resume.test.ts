import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { compareTaskStreamCursors, parseTaskStreamCursor } from "@troupe/client/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import {
  a2aClient,
  request,
  SLOW_ANSWER,
  streamedText,
  TOKEN,
  userMessage,
} from "./a2a-test-client.js";
import { startTroupeA2a, type TroupeA2a } from "./troupe-a2a-process.js";

/** The `troupe/cursor` of a stream update (every statusUpdate and artifactUpdate has one). */
function cursorOf(event: StreamResponse): string {
  const payload = event.payload;
  const cursor =
    payload?.$case === "statusUpdate" || payload?.$case === "artifactUpdate"
      ? (payload.value.metadata?.["troupe/cursor"] as unknown)
      : undefined;
  expect(typeof cursor, `the cursor of a ${payload?.$case}`).toBe("string");
  return cursor as string;
}

/** The updates of a stream (its statusUpdates and artifactUpdates), without the task that opens it. */
function updatesOf(events: readonly StreamResponse[]): StreamResponse[] {
  return events.filter((event) => event.payload?.$case !== "task");
}

/** What an update says, without its time: its cursor and state, or its cursor and chunk. */
function describeUpdate(event: StreamResponse): string {
  const payload = event.payload;
  if (payload?.$case === "statusUpdate") {
    return `${cursorOf(event)} ${TaskState[payload.value.status!.state]}`;
  }
  if (payload?.$case === "artifactUpdate") {
    const content = payload.value.artifact?.parts[0]?.content;
    const text = content?.$case === "text" ? content.value : "";
    const how = `${payload.value.append ? "append" : "replace"}${payload.value.lastChunk ? " last" : ""}`;
    return `${cursorOf(event)} ${how} ${JSON.stringify(text)}`;
  }
  return String(payload?.$case);
}

// Resumable task streams: a client that lost its stream with the server
// resubscribes with the cursor of the last update it got and gets every
// update once, in order (docs/decisions/0056).
describe("troupe a2a: SubscribeToTask resumes after a cursor", () => {
  let dev: TroupeDev;
  let a2a: TroupeA2a;

  beforeAll(async () => {
    dev = await startTroupeDev();
    a2a = await startTroupeA2a(dev.home, ["--port", "0", "--token", TOKEN]);
  }, 150_000);

  afterAll(async () => {
    await a2a?.kill();
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  it("after troupe a2a is SIGKILLed and restarted mid-answer, the stream resumed with Last-Event-ID gets every update once, in order", async () => {
    const before = await a2aClient(a2a.ready.url);
    // 30 words 400 ms apart (12 s): still streaming when the new process is up.
    const sent = before.sendMessageStream(
      request(userMessage("/slow 400", { contextId: "a2a-resume-1" })),
    );
    const stream = sent[Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.done !== true && first.value.payload?.$case).toBe("task");
    const taskId =
      first.done !== true && first.value.payload?.$case === "task"
        ? first.value.payload.value.id
        : "";
    const received: StreamResponse[] = [];
    while (received.filter((event) => event.payload?.$case === "artifactUpdate").length < 3) {
      const next = await stream.next();
      expect(next.done, "the stream ended before three chunks").not.toBe(true);
      if (next.done !== true) received.push(next.value);
    }

    await a2a.kill();
    // Whatever the client had buffered before the connection broke still
    // counts as received; then the stream fails (or ends).
    for (;;) {
      const next = await stream.next().catch(() => ({ done: true as const, value: undefined }));
      if (next.done === true) break;
      received.push(next.value);
    }
    const last = cursorOf(received.at(-1)!);

    a2a = await startTroupeA2a(dev.home, ["--port", "0", "--token", TOKEN]);
    const after = await a2aClient(a2a.ready.url);
    const resumed: StreamResponse[] = [];
    for await (const event of after.resubscribeTask(
      { tenant: "", id: taskId },
      { serviceParameters: { "Last-Event-ID": last } },
    )) {
      resumed.push(event);
    }
    // The stream opens with the task as it is now: still working, mid-answer.
    expect(resumed[0]?.payload?.$case).toBe("task");
    const now = resumed[0]?.payload?.$case === "task" ? resumed[0].payload.value : undefined;
    expect(now?.status?.state).toBe(TaskState.TASK_STATE_WORKING);

    const all = [...updatesOf(received), ...updatesOf(resumed)];
    const cursors = all.map((event) => parseTaskStreamCursor(cursorOf(event)));
    for (let index = 1; index < cursors.length; index++) {
      expect(
        compareTaskStreamCursors(cursors[index - 1]!, cursors[index]!),
        `cursor ${cursorOf(all[index - 1]!)} before ${cursorOf(all[index]!)}`,
      ).toBeLessThan(0);
    }
    expect(updatesOf(resumed).length, "updates after the cursor").toBeGreaterThan(1);
    expect(streamedText(all)).toBe(SLOW_ANSWER);
    const end = all.at(-1)?.payload;
    expect(end?.$case === "statusUpdate" && end.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );

    // The same updates as one stream read without a break: a subscription
    // from the start (cursor 0.0) now that the task is completed.
    const reference: StreamResponse[] = [];
    for await (const event of after.resubscribeTask(
      { tenant: "", id: taskId },
      { serviceParameters: { "Last-Event-ID": "0.0" } },
    )) {
      reference.push(event);
    }
    expect(all.map(describeUpdate)).toEqual(updatesOf(reference).map(describeUpdate));

    // After the last cursor there is nothing more: the task, then the end.
    const nothing: StreamResponse[] = [];
    for await (const event of after.resubscribeTask(
      { tenant: "", id: taskId },
      { serviceParameters: { "Last-Event-ID": cursorOf(all.at(-1)!) } },
    )) {
      nothing.push(event);
    }
    expect(nothing.map((event) => event.payload?.$case)).toEqual(["task"]);
    // A cursor the server never sent — the final event with no deltas read —
    // replays none of the answer's deltas: the task ended within it.
    const [finalEvents] = cursorOf(all.at(-1)!).split(".");
    const forged: StreamResponse[] = [];
    for await (const event of after.resubscribeTask(
      { tenant: "", id: taskId },
      { serviceParameters: { "Last-Event-ID": `${finalEvents}.0` } },
    )) {
      forged.push(event);
    }
    expect(forged.map((event) => event.payload?.$case)).toEqual(["task"]);
  }, 60_000);

  it("a malformed Last-Event-ID is refused as invalid params, in protocol 1.0 and 0.3", async () => {
    const subscribe = async (version: "1.0" | "0.3") => {
      const response = await fetch(a2a.ready.agents[0]!.endpoint, {
        method: "POST",
        headers: {
          authorization: `Bearer ${TOKEN}`,
          "content-type": "application/json",
          "A2A-Version": version,
          "Last-Event-ID": "41",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: version === "1.0" ? "SubscribeToTask" : "tasks/resubscribe",
          params: { id: "a2a-resume-2.c1" },
        }),
      });
      return await response.text();
    };
    for (const version of ["1.0", "0.3"] as const) {
      const body = await subscribe(version);
      expect(body, version).toContain("-32602");
      expect(body, version).toContain("Last-Event-ID: ");
      expect(body, version).toContain("is not a task stream cursor");
    }
  }, 30_000);
});
