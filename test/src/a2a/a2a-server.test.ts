import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import { TroupeClient } from "@troupe/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTroupe, startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { startTroupeA2a, type TroupeA2a } from "./troupe-a2a-process.js";
import {
  a2aClient,
  answerOf,
  asTask,
  request,
  SLOW_ANSWER,
  streamedText,
  TOKEN,
  userMessage,
} from "./a2a-test-client.js";

/** The text of a task's status message. */
function statusText(task: Task): string {
  const part = task.status?.message?.parts[0];
  return part?.content?.$case === "text" ? part.content.value : "";
}

// issue #15, "A2A too": the official A2A SDK client against `troupe a2a`
// serving the demo agent of a `troupe dev` cluster.
describe("troupe a2a: the deployment's agents over the Agent2Agent protocol", () => {
  let dev: TroupeDev;
  let a2a: TroupeA2a;
  let troupe: TroupeClient;

  beforeAll(async () => {
    dev = await startTroupeDev();
    a2a = await startTroupeA2a(dev.home, ["--port", "0", "--token", TOKEN]);
    troupe = await TroupeClient.connect({ natsUrl: (await dev.state()).natsUrl });
  }, 150_000);

  afterAll(async () => {
    await troupe?.close();
    await a2a?.kill();
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  it("publishes an agent card per agent, with streaming and the bearer scheme when a token is set", async () => {
    expect(a2a.ready.auth).toBe("bearer");
    expect(a2a.ready.agents.map((agent) => agent.name)).toEqual(["demo"]);
    const card = (await (
      await fetch(`${a2a.ready.url}/.well-known/agent-card.json`, {
        headers: { "A2A-Version": "1.0" },
      })
    ).json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      name: "demo",
      capabilities: { streaming: true, pushNotifications: false },
      supportedInterfaces: [
        { url: `${a2a.ready.url}/agents/demo`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: `${a2a.ready.url}/agents/demo`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      ],
      securitySchemes: {
        bearer: { scheme: { $case: "httpAuthSecurityScheme", value: { scheme: "Bearer" } } },
      },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    });
    const perAgent = await fetch(a2a.ready.agents[0]!.cardUrl, {
      headers: { "A2A-Version": "1.0" },
    });
    expect(((await perAgent.json()) as { name: string }).name).toBe("demo");
  }, 30_000);

  it("SendMessage waits for the run and returns the completed task with the answer", async () => {
    const client = await a2aClient(a2a.ready.url);
    const message = userMessage("what time is it in Tokyo?", { contextId: "a2a-send-1" });
    const task = asTask(await client.sendMessage(request(message)));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.contextId).toBe("a2a-send-1");
    expect(task.id).toBe(`a2a-send-1.${message.messageId}`);
    expect(answerOf(task)).toMatch(/^It is \d{2}:\d{2} in Asia\/Tokyo\.$/);
    // The same A2A message again starts no second run: the same task, the same answer.
    const again = asTask(await client.sendMessage(request(message)));
    expect(again.id).toBe(task.id);
    expect(answerOf(again)).toBe(answerOf(task));
    const runs = [];
    for await (const { event } of troupe.events("a2a-send-1", { fromSequence: 1 })) {
      if (event.type === "run.completed") runs.push(event.payload.runId);
      if (event.type === "session.idle") break;
    }
    expect(runs).toHaveLength(1);
  }, 60_000);

  it("SendStreamingMessage streams the answer as artifact chunks that add up to the final answer", async () => {
    const client = await a2aClient(a2a.ready.url);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(
      request(userMessage("/slow 20", { contextId: "a2a-stream-1" })),
    )) {
      events.push(event);
    }
    expect(events[0]?.payload?.$case).toBe("task");
    const chunks = events.flatMap((event) =>
      event.payload?.$case === "artifactUpdate" ? [event.payload.value] : [],
    );
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0]!.append).toBe(false);
    const streamed = streamedText(events);
    // The last chunk appends nothing: the deltas alone gave the whole answer.
    expect(chunks.at(-1)).toMatchObject({ append: true, lastChunk: true });
    const last = events.at(-1)?.payload;
    expect(last?.$case).toBe("statusUpdate");
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const taskId = events[0]?.payload?.$case === "task" ? events[0].payload.value.id : "";
    const final = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(answerOf(final)).toBe(SLOW_ANSWER);
    expect(streamed).toBe(SLOW_ANSWER);
  }, 60_000);

  it("a task outlives the serving process: after SIGKILL and a restart, GetTask, SubscribeToTask, an approval and CancelTask all work", async () => {
    const port = new URL(a2a.ready.url).port;
    const before = await a2aClient(a2a.ready.url);
    // 30 words 400 ms apart: still streaming when the restarted process takes over.
    const slow = asTask(
      await before.sendMessage(
        request(userMessage("/slow 400", { contextId: "a2a-restart-1" }), true),
      ),
    );
    expect(slow.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const email = asTask(
      await before.sendMessage(
        request(
          userMessage("email ada@example.com the launch is on Friday", {
            contextId: "a2a-restart-2",
          }),
        ),
      ),
    );
    expect(email.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(email)).toContain("Approve the tool call send_email");
    const doomed = asTask(
      await before.sendMessage(
        request(userMessage("email eve@example.com never", { contextId: "a2a-restart-3" })),
      ),
    );
    expect(doomed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    await a2a.kill();
    a2a = await startTroupeA2a(dev.home, ["--port", port, "--token", TOKEN]);
    const after = await a2aClient(a2a.ready.url);

    // SubscribeToTask: the task as it is, then the answer's chunks (from the
    // first word: deltas are replayed) and the final state.
    const resumed: StreamResponse[] = [];
    for await (const event of after.resubscribeTask({ tenant: "", id: slow.id }))
      resumed.push(event);
    expect(resumed[0]?.payload?.$case).toBe("task");
    expect(streamedText(resumed)).toBe(SLOW_ANSWER);
    const end = resumed.at(-1)?.payload;
    expect(end?.$case === "statusUpdate" && end.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const done = await after.getTask({ tenant: "", id: slow.id, historyLength: undefined });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(done)).toBe(SLOW_ANSWER);
    expect(done.metadata?.troupe).toMatchObject({ sessionId: "a2a-restart-1" });

    const waiting = await after.getTask({ tenant: "", id: email.id, historyLength: undefined });
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const approved = asTask(
      await after.sendMessage(
        request(userMessage("approve", { taskId: email.id, contextId: "a2a-restart-2" })),
      ),
    );
    expect(approved.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(approved)).toContain("Sent the email to ada@example.com.");

    const cancelled = await after.cancelTask({ tenant: "", id: doomed.id, metadata: {} });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const runId = (doomed.metadata?.troupe as { runId?: string } | undefined)?.runId;
    expect(runId).toBeDefined();
    const outcome = await troupe.waitForRun(
      "a2a-restart-3",
      { runId: runId! },
      { timeoutMs: 10_000 },
    );
    expect(outcome.status).toBe("cancelled");
  }, 120_000);

  it("a question (ask_user) streams as input-required and the answer text completes the run", async () => {
    const client = await a2aClient(a2a.ready.url);
    const asked: StreamResponse[] = [];
    const ask = userMessage('/tool ask_user {"question":"Which city?"}', {
      contextId: "a2a-question-1",
    });
    for await (const event of client.sendMessageStream(request(ask))) asked.push(event);
    const last = asked.at(-1)?.payload;
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    const question =
      last?.$case === "statusUpdate" ? last.value.status?.message?.parts[0]?.content : undefined;
    expect(question).toEqual({ $case: "text", value: "Which city?" });
    const taskId = `a2a-question-1.${ask.messageId}`;
    const answered: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(request(userMessage("Paris", { taskId }))))
      answered.push(event);
    const end = answered.at(-1)?.payload;
    expect(end?.$case === "statusUpdate" && end.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const task = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(answerOf(task)).toContain("Paris");
  }, 60_000);

  it("a data part {approve: false, reason} denies the call: the run goes on and says so", async () => {
    const client = await a2aClient(a2a.ready.url);
    const waiting = asTask(
      await client.sendMessage(
        request(userMessage("email bob@example.com lunch?", { contextId: "a2a-deny-1" })),
      ),
    );
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const reply = userMessage("", { taskId: waiting.id });
    reply.parts = [
      {
        content: { $case: "data", value: { approve: false, reason: "not today" } },
        metadata: {},
        filename: "",
        mediaType: "application/json",
      },
    ];
    const denied = asTask(await client.sendMessage(request(reply)));
    expect(denied.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(denied)).toBe("I did not send the email: you denied it (not today).");
  }, 60_000);

  it("CancelTask cancels a streaming run (run.cancelled); the task ends canceled with the partial answer", async () => {
    const client = await a2aClient(a2a.ready.url);
    const message = userMessage("/slow 300", { contextId: "a2a-cancel-1" });
    const taskId = `a2a-cancel-1.${message.messageId}`;
    const events: StreamResponse[] = [];
    let cancelled: Task | undefined;
    for await (const event of client.sendMessageStream(request(message))) {
      events.push(event);
      if (event.payload?.$case === "artifactUpdate" && cancelled === undefined) {
        cancelled = await client.cancelTask({ tenant: "", id: taskId, metadata: {} });
      }
    }
    expect(cancelled?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const end = events.at(-1)?.payload;
    expect(end?.$case === "statusUpdate" && end.value.status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    const outcome = await troupe.waitForRun(
      "a2a-cancel-1",
      { clientMessageId: message.messageId },
      { timeoutMs: 10_000 },
    );
    expect(outcome.status).toBe("cancelled");
    // The partial answer is a prefix of the slow answer, shorter than all of it.
    const partial = answerOf(
      await client.getTask({ tenant: "", id: taskId, historyLength: undefined }),
    );
    expect(partial?.length).toBeGreaterThan(0);
    expect(SLOW_ANSWER.startsWith(partial ?? "")).toBe(true);
    expect((partial ?? "").length).toBeLessThan(SLOW_ANSWER.length);
    // A canceled task takes no more messages.
    await expect(client.sendMessage(request(userMessage("approve", { taskId })))).rejects.toThrow(
      /cancelled.*takes no more messages/,
    );
  }, 60_000);

  it("speaks protocol 0.3 too: a plain JSON-RPC message/send gets the completed task", async () => {
    const response = await fetch(`${a2a.ready.url}/agents/demo`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "message/send",
        params: {
          message: {
            kind: "message",
            messageId: "legacy-1",
            contextId: "a2a-legacy-1",
            role: "user",
            parts: [{ kind: "text", text: "what time is it in Paris?" }],
          },
        },
      }),
    });
    const body = (await response.json()) as { result: Record<string, unknown> };
    expect(body.result).toMatchObject({
      kind: "task",
      id: "a2a-legacy-1.legacy-1",
      contextId: "a2a-legacy-1",
      status: { state: "completed" },
    });
    expect(JSON.stringify(body.result["artifacts"])).toMatch(
      /It is \d{2}:\d{2} in Europe\/Paris\./,
    );
  }, 30_000);

  it("refuses a request without the token, and an unknown task id as not found", async () => {
    const response = await fetch(`${a2a.ready.url}/agents/demo`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x.y" } }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="troupe"');
    const wrong = await a2aClient(a2a.ready.url, "not-the-token");
    await expect(wrong.sendMessage(request(userMessage("hello")))).rejects.toThrow(
      /401|Unauthorized/,
    );
    const client = await a2aClient(a2a.ready.url);
    await expect(
      client.getTask({ tenant: "", id: "no-dot-here", historyLength: undefined }),
    ).rejects.toThrow(/Unknown task id/);
    // A body over 4 MiB is a JSON-RPC error with HTTP 413, not an HTML page.
    const huge = await fetch(`${a2a.ready.url}/agents/demo`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "A2A-Version": "1.0",
        authorization: `Bearer ${TOKEN}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "GetTask",
        params: { id: "x".repeat(5 * 1024 * 1024) },
      }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32600, message: "The request body is larger than 4194304 bytes." },
    });
  }, 30_000);

  it("without a token it binds loopback only and says so; a public address needs a token", async () => {
    const open = await runTroupe(["a2a", "--port", "0", "--host", "0.0.0.0"], {
      home: dev.home,
      timeoutMs: 30_000,
    });
    expect(open.code).toBe(1);
    expect(open.stderr).toContain("troupe a2a refuses to listen on 0.0.0.0 without a token");
    const local = await startTroupeA2a(dev.home, ["--port", "0"]);
    try {
      expect(local.ready.auth).toBe("none");
      expect(new URL(local.ready.url).hostname).toBe("127.0.0.1");
      const client = await a2aClient(local.ready.url, undefined);
      const task = asTask(
        await client.sendMessage(request(userMessage("hello", { contextId: "a2a-open-1" }))),
      );
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    } finally {
      expect(await local.stop()).toBe(0);
    }
  }, 60_000);
});
