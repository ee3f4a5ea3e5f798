import { TroupeClient } from "@troupe/client";
import { serveGateway, type ServingGateway } from "@troupe/gateway";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type DynamicToolUIPart,
  type UIMessage,
} from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HeadlessChat, textOf } from "../support/headless-chat.js";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { uiTextDeltas } from "../support/ui-text-deltas.js";
import { waitFor } from "../support/wait-for.js";

const SLOW_ANSWER =
  "This answer streams slowly, one word at a time, so that there is time to cancel " +
  "the run or to stop the host while the model call is still streaming its text.";

/** The JSON chunks of a UI message stream (SSE `data:` lines, `[DONE]` excluded). */
async function readChunks(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/** The text of the chat's assistant answer so far ("" while the user message is the last one). */
const answerOf = (chat: HeadlessChat) =>
  chat.lastMessage?.role === "assistant" ? textOf(chat.lastMessage) : "";

const toolParts = (message: UIMessage | undefined) =>
  (message?.parts ?? []).filter((part): part is DynamicToolUIPart => part.type === "dynamic-tool");

// Must show #1 of issue #16: the real AI SDK chat (`AbstractChat` with
// `DefaultChatTransport`, what `useChat` drives) against a live gateway over a
// real `troupe dev` with two host processes.
describe("useChat against the gateway", () => {
  let dev: TroupeDev;
  let client: TroupeClient;
  let gateway: ServingGateway;
  const chats: HeadlessChat[] = [];

  beforeAll(async () => {
    dev = await startTroupeDev(["--hosts", "2"]);
    const state = await dev.state();
    client = await TroupeClient.connect({ natsUrl: state.natsUrl, prefix: state.prefix });
    gateway = await serveGateway({ client, port: 0, console: false, log: () => undefined });
  }, 120_000);

  // What `troupe dev` said (host exits, restarts, refusals) when a test failed.
  afterEach((context) => {
    if (context.task.result?.state === "fail") {
      console.log(`troupe dev output, last 4,000 characters:\n${dev?.output().slice(-4_000)}`);
    }
  });

  afterAll(async () => {
    await Promise.all(chats.map((chat) => chat.stop()));
    await gateway?.close();
    await client?.close();
    await dev?.stop();
  }, 60_000);

  const chatFor = (id: string, init: { automatic?: boolean; fetch?: typeof fetch } = {}) => {
    const chat = new HeadlessChat({
      id,
      transport: new DefaultChatTransport({
        api: `${gateway.url}/api/chat`,
        ...(init.fetch === undefined ? {} : { fetch: init.fetch }),
      }),
      ...(init.automatic === true
        ? { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses }
        : {}),
    });
    chats.push(chat);
    return chat;
  };

  it("a turn with a tool call and an approval completes: addToolApprovalResponse sends the next POST automatically", async () => {
    const chat = chatFor("chat-approve-1", { automatic: true });
    await chat.sendMessage({ text: "email ada@example.com about lunch" });
    expect(chat.status).toBe("ready");
    expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    const waiting = chat.messages[1];
    expect(waiting?.id).toBe("troupe:chat-approve-1:r1");
    expect(waiting?.metadata).toMatchObject({ sessionId: "chat-approve-1", runId: "r1" });
    const [call] = toolParts(waiting);
    expect(call).toMatchObject({
      toolName: "send_email",
      state: "approval-requested",
      input: { to: "ada@example.com", subject: "Lunch", body: "about lunch" },
    });
    expect(call?.state === "approval-requested" && call.approval.id).toBe(
      `chat-approve-1:${call?.toolCallId}`,
    );

    // A reload while the run waits for the approval shows the request, and the stream ends there.
    const reloaded = chatFor("chat-approve-1");
    await reloaded.resumeStream();
    expect(reloaded.status).toBe("ready");
    expect(toolParts(reloaded.lastMessage).map((part) => part.state)).toEqual([
      "approval-requested",
    ]);

    await chat.addToolApprovalResponse({
      id: call?.state === "approval-requested" ? call.approval.id : "",
      approved: true,
    });
    await waitFor(() => chat.status === "ready" && answerOf(chat) !== "", {
      timeoutMs: 30_000,
      description: "the answer after the approval",
    });
    expect(chat.messages).toHaveLength(2);
    const answer = chat.lastMessage;
    expect(textOf(answer)).toBe("Sent the email to ada@example.com.");
    expect(toolParts(answer).map((part) => [part.toolName, part.state])).toEqual([
      ["send_email", "output-available"],
    ]);
    expect(toolParts(answer)[0]?.output).toMatchObject({ sent: true, to: "ada@example.com" });
    expect(chat.error).toBeUndefined();
  }, 60_000);

  it("a denial through addToolApprovalResponse reaches the model with its reason", async () => {
    const chat = chatFor("chat-deny-1", { automatic: true });
    await chat.sendMessage({ text: "email eve@example.com about the plan" });
    const [call] = toolParts(chat.lastMessage);
    expect(call?.state).toBe("approval-requested");
    await chat.addToolApprovalResponse({
      id: call?.state === "approval-requested" ? call.approval.id : "",
      approved: false,
      reason: "not now",
    });
    await waitFor(() => chat.status === "ready" && answerOf(chat) !== "", {
      timeoutMs: 30_000,
      description: "the answer after the denial",
    });
    expect(answerOf(chat)).toBe("I did not send the email: you denied it (not now).");
    expect(toolParts(chat.lastMessage).map((part) => part.state)).toEqual(["output-denied"]);
    expect(chat.messages).toHaveLength(2);
  }, 60_000);

  it("a reload mid-stream (a new Chat calling resumeStream) shows the whole answer exactly once", async () => {
    const first = chatFor("chat-resume-1");
    const sending = first.sendMessage({ text: "/slow 100" });
    await waitFor(() => answerOf(first).length > 0, {
      timeoutMs: 30_000,
      description: "the first words of the answer",
    });
    expect(textOf(first.lastMessage).length).toBeLessThan(SLOW_ANSWER.length);
    // The page reloads: the old chat is gone (its connection closed), a new one resumes.
    await first.stop();
    const reloaded = chatFor("chat-resume-1");
    await reloaded.resumeStream();
    expect(reloaded.error).toBeUndefined();
    expect(reloaded.messages).toHaveLength(1);
    expect(reloaded.messages[0]?.id).toBe("troupe:chat-resume-1:r1");
    expect(textOf(reloaded.messages[0])).toBe(SLOW_ANSWER);
    expect(reloaded.messages[0]?.parts.filter((part) => part.type === "text")).toHaveLength(1);
    await sending;
    // The run has ended: a resume finds nothing (204) and changes nothing.
    const later = chatFor("chat-resume-1");
    await later.resumeStream();
    expect(later.messages).toEqual([]);
    expect(later.status).toBe("ready");
  }, 60_000);

  it("stop by run id (the cancel command) ends a resumed stream, keeping the text so far", async () => {
    const first = chatFor("chat-stop-1");
    const sending = first.sendMessage({ text: "/slow 150" });
    await waitFor(() => answerOf(first).length > 0, {
      timeoutMs: 30_000,
      description: "the first words of the answer",
    });
    await first.stop();
    await sending;
    let finish: { isAbort: boolean; finishReason?: string } | undefined;
    const resumed = new HeadlessChat({
      id: "chat-stop-1",
      transport: new DefaultChatTransport({ api: `${gateway.url}/api/chat` }),
      onFinish: (result) => (finish = result),
    });
    chats.push(resumed);
    const resuming = resumed.resumeStream();
    await waitFor(() => answerOf(resumed).length > 0, {
      timeoutMs: 30_000,
      description: "the resumed answer",
    });
    const { runId } = resumed.lastMessage?.metadata as { runId: string };
    await client.cancel("chat-stop-1", { runId, reason: "stopped by the user" });
    await resuming;
    expect(resumed.status).toBe("ready");
    expect(resumed.error).toBeUndefined();
    expect(finish?.isAbort).toBe(false);
    const partial = answerOf(resumed);
    expect(SLOW_ANSWER.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(SLOW_ANSWER.length);
    const outcome = await client.waitForRun("chat-stop-1", { runId }, { timeoutMs: 10_000 });
    expect(outcome.status).toBe("cancelled");
  }, 60_000);

  it("SIGKILL of the host during the answer: the stream continues with the retried attempt, no duplicated text", async () => {
    const state = await dev.state();
    let raw = "";
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.body === null) return response;
      const [mine, theirs] = response.body.tee();
      void (async () => {
        const decoder = new TextDecoder();
        for await (const bytes of mine as AsyncIterable<Uint8Array>) {
          raw += decoder.decode(bytes, { stream: true });
        }
      })();
      return new Response(theirs, response);
    };
    const chat = chatFor("chat-kill-1", { fetch: recordingFetch });
    const sending = chat.sendMessage({ text: "/slow 150" });
    await waitFor(() => answerOf(chat).length > 0, {
      timeoutMs: 30_000,
      description: "the answer streams",
    });
    // Whichever host streams the model call dies: both do (troupe dev restarts them).
    const restartsBefore = dev.output().split(" restarted: ").length;
    for (const host of state.hosts) process.kill(host.pid, "SIGKILL");
    await waitFor(() => dev.output().split(" restarted: ").length >= restartsBefore + 2, {
      timeoutMs: 90_000,
      description: "troupe dev restarted both hosts",
    });
    await sending;
    expect(chat.error).toBeUndefined();
    expect(chat.messages).toHaveLength(2);
    expect(textOf(chat.lastMessage)).toBe(SLOW_ANSWER);
    expect(chat.lastMessage?.parts.filter((part) => part.type === "text")).toHaveLength(1);
    // The retried stream attempt replaced the first one's text in the UI.
    expect(raw).toContain('"type":"reset-step"');
    expect(raw).toMatch(/"id":"r1\.m1:[2-9]:text:\d+"/);
  }, 150_000);

  it("a subagent's text, tool call and answer appear in the parent's stream", async () => {
    const chat = chatFor("chat-subagent-1");
    await chat.sendMessage({ text: "ask the researcher what time it is in Tokyo" });
    const answer = chat.lastMessage;
    expect(textOf(answer)).toMatch(/^The researcher says: It is \d{2}:\d{2} in Asia\/Tokyo\.$/);
    const subagent = answer?.parts.find((part) => part.type === "data-subagent");
    expect(subagent).toMatchObject({
      data: { toolCallId: "call-2-1", task: "what time it is in Tokyo", status: "completed" },
    });
    const subagentText = (subagent as { data: { text: string; sessionId: string } }).data;
    expect(subagentText.text).toMatch(/^It is \d{2}:\d{2} in Asia\/Tokyo\.$/);
    expect(toolParts(answer).map((part) => [part.toolCallId, part.toolName, part.state])).toEqual([
      ["call-2-1", "researcher", "output-available"],
      [`${subagentText.sessionId}:call-2-1`, "clock", "output-available"],
    ]);
  }, 60_000);

  it("ask_user is a data-question part; the stream stays open until the answer, then the run goes on", async () => {
    const chat = chatFor("chat-question-1");
    const sending = chat.sendMessage({ text: '/tool ask_user {"question":"Which city?"}' });
    let question:
      { questionId: string; sessionId: string; text: string; status: string } | undefined;
    await waitFor(
      () => {
        const part = chat.lastMessage?.parts.find(
          (candidate) => candidate.type === "data-question",
        );
        question = (part as { data?: typeof question } | undefined)?.data;
        return question !== undefined;
      },
      { timeoutMs: 30_000, description: "the question in the stream" },
    );
    expect(question).toMatchObject({
      sessionId: "chat-question-1",
      text: "Which city?",
      status: "open",
    });
    expect(chat.status).toBe("streaming");
    await client.answer("chat-question-1", question!.questionId, "Paris");
    await sending;
    const answer = chat.lastMessage;
    // The demo agent answers a tool result with "<tool>: <result>".
    expect(textOf(answer)).toBe("ask_user: Paris");
    expect(answer?.parts.find((part) => part.type === "data-question")).toMatchObject({
      data: { status: "answered", answer: "Paris" },
    });
  }, 60_000);

  it("a long wait (a question) sends keep-alive comments the SDK ignores", async () => {
    const quick = await serveGateway({
      client,
      port: 0,
      console: false,
      log: () => undefined,
      limits: { keepAliveMs: 100 },
    });
    try {
      const response = await fetch(`${quick.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: "chat-keepalive-1",
          message: {
            id: "u-keepalive-1",
            role: "user",
            parts: [{ type: "text", text: '/tool ask_user {"question":"Still there?"}' }],
          },
        }),
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let raw = "";
      let answered = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        raw += decoder.decode(value, { stream: true });
        const question = /"type":"data-question".*?"questionId":"([^"]+)"/.exec(raw);
        // A keep-alive sent while the question waits (one may come before it
        // too, when the run takes over 100 ms to start).
        if (!answered && question !== null && raw.includes(": keep-alive", question.index)) {
          answered = true;
          await client.answer("chat-keepalive-1", question[1] ?? "", "yes");
        }
      }
      expect(answered).toBe(true);
      const questionAt = raw.indexOf('"type":"data-question"');
      expect(questionAt).toBeGreaterThan(-1);
      expect(raw.indexOf(": keep-alive", questionAt)).toBeGreaterThan(questionAt);
      // The answer's text, whichever deltas carry it (a delta holds its last character back, issue #31).
      const answerText = uiTextDeltas(raw).join("");
      expect(answerText).toContain("ask_user: yes");
      expect(raw.trimEnd().endsWith("data: [DONE]")).toBe(true);
    } finally {
      await quick.close();
    }
  }, 60_000);

  it("a retried POST with the same message id starts no second run and streams the first run", async () => {
    const body = JSON.stringify({
      id: "chat-retry-1",
      messages: [{ id: "u-retry-1", role: "user", parts: [{ type: "text", text: "hello" }] }],
      trigger: "submit-message",
    });
    const post = () =>
      fetch(`${gateway.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    const first = await post();
    expect(first.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const firstChunks = await readChunks(first);
    const second = await readChunks(await post());
    for (const chunks of [firstChunks, second]) {
      expect(chunks[0]).toMatchObject({ type: "start", messageId: "troupe:chat-retry-1:r1" });
      expect(
        chunks
          .filter((chunk) => chunk.type === "text-delta")
          .map((chunk) => chunk["delta"])
          .join(""),
      ).toBe("Hello! I am the Troupe demo agent. Ask me anything.");
      expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    }
    const controller = new AbortController();
    const starts: string[] = [];
    for await (const { event, pending } of client.events("chat-retry-1", {
      fromSequence: 1,
      signal: controller.signal,
    })) {
      if (event.type === "run.started") starts.push(event.payload.runId);
      if (pending === 0 && event.type === "session.idle") break;
    }
    controller.abort();
    expect(starts).toEqual(["r1"]);
  }, 60_000);

  it("closing the connection mid-answer does not cancel the run", async () => {
    const controller = new AbortController();
    const response = await fetch(`${gateway.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: "chat-close-1",
        message: { id: "u-close-1", role: "user", parts: [{ type: "text", text: "/slow 50" }] },
      }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let seen = "";
    while (!seen.includes('"type":"text-delta"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    controller.abort();
    const outcome = await client.waitForRun("chat-close-1", { runId: "r1" }, { timeoutMs: 30_000 });
    expect(outcome.status).toBe("completed");
    expect(outcome.status === "completed" && outcome.text).toBe(SLOW_ANSWER);
  }, 60_000);

  it("bad input is a 4xx JSON error and sends nothing", async () => {
    const post = (body: string) =>
      fetch(`${gateway.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    const malformed = await post("{");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: 400, code: "invalid_json" });
    const badId = await post(
      JSON.stringify({ id: "no spaces", messages: [{ id: "u", role: "user", parts: [] }] }),
    );
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ code: "invalid_request" });
    const empty = await post(
      JSON.stringify({
        id: "chat-bad-1",
        messages: [{ id: "u", role: "user", parts: [{ type: "text", text: " " }] }],
      }),
    );
    expect(empty.status).toBe(400);
    const resume = await fetch(`${gateway.url}/api/chat/chat-bad-1/stream`);
    expect(resume.status).toBe(204);
    expect(await client.storedEventCount("chat-bad-1")).toBe(0);
  }, 30_000);
});
