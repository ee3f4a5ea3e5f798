import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { TroupeClient } from "@troupe/client";
import { allSessionsEventWildcard } from "@troupe/protocol";
import { streamNames } from "@troupe/protocol/internal";
import { serveGateway, type ServingGateway } from "@troupe/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SseReader, type SseEvent } from "../support/sse-reader.js";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { waitFor } from "../support/wait-for.js";

const ADMIN = "rest-admin-token";
const TEAM = "rest-team-token";
const ORIGIN = "http://app.example";

/** The demo agent's answer to `hello` (actors/models/src/models/demo-script.ts). */
const HELLO_ANSWER = "Hello! I am the Troupe demo agent. Ask me anything.";

interface Json {
  readonly status: number;
  readonly body: Record<string, unknown> & unknown[];
  readonly headers: Headers;
}

// issue #16, "Plain REST + SSE" and "Auth": every /v1 route of the gateway
// in-process (serveGateway) against a `troupe dev` cluster with the demo agent.
describe("gateway REST routes", () => {
  let dev: TroupeDev;
  let client: TroupeClient;
  let gateway: ServingGateway;

  beforeAll(async () => {
    dev = await startTroupeDev(["--no-gateway"]);
    client = await TroupeClient.connect({ natsUrl: (await dev.state()).natsUrl });
    gateway = await serveGateway({
      client,
      port: 0,
      auth: {
        tokens: [
          { token: ADMIN, name: "admin" },
          { token: TEAM, sessionPrefix: "team-", name: "team" },
        ],
      },
      corsOrigins: [ORIGIN],
      console: false,
      log: () => undefined,
    });
  }, 150_000);

  afterAll(async () => {
    await gateway?.close();
    await client?.close();
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  const call = async (
    method: string,
    path: string,
    options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Json> => {
    const token = options.token === undefined ? ADMIN : options.token;
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text === "" ? {} : JSON.parse(text)) as Json["body"],
    };
  };

  /** Reads the session's SSE from `from` until `until` holds. */
  const readEvents = async (
    sessionId: string,
    until: (events: readonly SseEvent[]) => boolean,
    options: { from?: number; token?: string } = {},
  ): Promise<SseEvent[]> => {
    const response = await fetch(
      `${gateway.url}/v1/sessions/${sessionId}/events?from=${options.from ?? 1}`,
      { headers: { authorization: `Bearer ${options.token ?? ADMIN}` } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = new SseReader(response);
    try {
      return [...(await reader.readUntil(until, 30_000))];
    } finally {
      await reader.cancel();
    }
  };

  const typeIs = (type: string) => (events: readonly SseEvent[]) =>
    events.some((event) => event.event === type);

  it("follows every session's events only from the first request that reads the fleet index (issue #32)", async () => {
    const nats = await connect({ servers: (await dev.state()).natsUrl });
    try {
      const jsm = await jetstreamManager(nats);
      const fleetConsumers = async () =>
        (await jsm.consumers.list(streamNames("troupe").events).next()).filter((info) =>
          [info.config.filter_subject, ...(info.config.filter_subjects ?? [])].includes(
            allSessionsEventWildcard(),
          ),
        ).length;
      // The gateway is up and has answered a request that does not read the index.
      expect((await call("GET", "/v1/openapi.json")).status).toBe(200);
      expect(await fleetConsumers()).toBe(0);
      const approvals = await call("GET", "/v1/approvals");
      expect(approvals.status).toBe(200);
      expect(Array.isArray(approvals.body)).toBe(true);
      expect(await fleetConsumers()).toBe(1);
    } finally {
      await nats.close();
    }
  });

  it("sends a message (202 SendReceipt), streams its run as SSE and reports the idle session", async () => {
    const sent = await call("POST", "/v1/sessions/rest-hello/messages", {
      body: { text: "hello", clientMessageId: "hello-1" },
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({
      sessionId: "rest-hello",
      messageId: "cm:hello-1",
      clientMessageId: "hello-1",
      duplicate: false,
    });
    const events = await readEvents("rest-hello", typeIs("run.completed"));
    const completed = events.find((event) => event.event === "run.completed")!;
    expect(JSON.parse(completed.data)).toMatchObject({
      type: "run.completed",
      payload: { runId: "r1", text: HELLO_ANSWER },
    });
    // Durable events have their stream sequence as id, growing; deltas <seq>.<k>.
    const durable = events.filter((event) => /^\d+$/.test(event.id ?? ""));
    const sequences = durable.map((event) => Number(event.id));
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
    const deltas = events.filter((event) => event.event === "run.delta");
    expect(deltas.length).toBeGreaterThan(0);
    for (const delta of deltas) expect(delta.id).toMatch(/^\d+\.\d+$/);
    expect(
      deltas.map((delta) => (JSON.parse(delta.data) as { payload: { text: string } }).payload.text),
    ).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(
      deltas
        .map((delta) => (JSON.parse(delta.data) as { payload: { text: string } }).payload.text)
        .join(""),
    ).toBe(HELLO_ANSWER);

    // The retry of the same client message id is stored once.
    const retried = await call("POST", "/v1/sessions/rest-hello/messages", {
      body: { text: "hello", clientMessageId: "hello-1" },
    });
    expect(retried.body).toMatchObject({ duplicate: true, messageId: "cm:hello-1" });

    await waitFor(
      async () => (await call("GET", "/v1/sessions/rest-hello")).body["state"] === "idle",
      { timeoutMs: 20_000, description: "rest-hello idle" },
    );
    const state = await call("GET", "/v1/sessions/rest-hello");
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      sessionId: "rest-hello",
      state: "idle",
      lastRunId: "r1",
      pendingApprovals: [],
      openQuestions: [],
    });
    expect(state.body["runInProgress"]).toBeUndefined();
    const listed = await call("GET", "/v1/sessions?limit=1000");
    expect(listed.status).toBe(200);
    expect(listed.body.map((summary) => (summary as { sessionId: string }).sessionId)).toContain(
      "rest-hello",
    );
  });

  it("lists a pending approval of a real run (GET /v1/approvals, GET /v1/sessions/:id) and drops it once approved", async () => {
    const sessionId = "team-approve";
    await call("POST", `/v1/sessions/${sessionId}/messages`, {
      token: TEAM,
      body: { text: "email ada@example.com about the launch on Friday" },
    });
    let toolCallId = "";
    await waitFor(
      async () => {
        const approvals = (await call("GET", "/v1/approvals", { token: TEAM })).body as Array<{
          sessionId: string;
          toolCallId: string;
        }>;
        toolCallId =
          approvals.find((approval) => approval.sessionId === sessionId)?.toolCallId ?? "";
        return toolCallId !== "";
      },
      { timeoutMs: 30_000, description: "the approval listed" },
    );
    const approvals = (await call("GET", "/v1/approvals", { token: TEAM })).body as Array<{
      sessionId: string;
    }>;
    expect(approvals.find((approval) => approval.sessionId === sessionId)).toMatchObject({
      sessionId,
      ownerSessionId: sessionId,
      toolCallId,
      tool: "send_email",
      arguments: { to: "ada@example.com" },
      runId: "r1",
    });
    const state = await call("GET", `/v1/sessions/${sessionId}`, { token: TEAM });
    expect(state.body).toMatchObject({
      state: "running",
      runInProgress: { runId: "r1" },
      pendingApprovals: [{ toolCallId, tool: "send_email" }],
      openQuestions: [],
    });

    const approved = await call("POST", `/v1/sessions/${sessionId}/approvals/${toolCallId}`, {
      token: TEAM,
      body: { decision: "approve", note: "fine" },
    });
    expect(approved.status).toBe(202);
    expect(approved.body["sessionId"]).toBe(sessionId);
    expect(typeof approved.body["messageId"]).toBe("string");
    await waitFor(
      async () =>
        !(
          (await call("GET", "/v1/approvals", { token: TEAM })).body as Array<{
            sessionId: string;
          }>
        ).some((approval) => approval.sessionId === sessionId),
      { timeoutMs: 30_000, description: "the approval dropped" },
    );
    const events = await readEvents(sessionId, typeIs("run.completed"), { token: TEAM });
    const settled = events.find((event) => event.event === "command.settled");
    expect(JSON.parse(settled!.data)).toMatchObject({
      payload: { commandId: approved.body["messageId"], verdict: "applied" },
    });
    expect(events.some((event) => event.event === "tool.completed")).toBe(true);
  });

  it("denies an approval with a reason the model is told", async () => {
    const sessionId = "rest-deny";
    await call("POST", `/v1/sessions/${sessionId}/messages`, {
      body: { text: "email bob@example.com about nothing" },
    });
    let toolCallId = "";
    await waitFor(
      async () => {
        const state = await call("GET", `/v1/sessions/${sessionId}`);
        const pending = state.body["pendingApprovals"] as Array<{ toolCallId: string }> | undefined;
        toolCallId = pending?.[0]?.toolCallId ?? "";
        return toolCallId !== "";
      },
      { timeoutMs: 30_000, description: "the approval pending" },
    );
    const denied = await call("POST", `/v1/sessions/${sessionId}/approvals/${toolCallId}`, {
      body: { decision: "deny", reason: "not today" },
    });
    expect(denied.status).toBe(202);
    const events = await readEvents(sessionId, typeIs("run.completed"));
    const settled = events.find((event) => event.event === "tool.approval_settled");
    expect(JSON.parse(settled!.data)).toMatchObject({
      payload: { toolCallId, decision: "denied" },
    });
  });

  it("answers an ask_user question (POST …/questions/:id) listed in GET /v1/sessions/:id", async () => {
    const sessionId = "rest-question";
    await call("POST", `/v1/sessions/${sessionId}/messages`, {
      body: { text: '/tool ask_user {"question":"Which city?"}' },
    });
    let questionId = "";
    await waitFor(
      async () => {
        const state = await call("GET", `/v1/sessions/${sessionId}`);
        const open = state.body["openQuestions"] as Array<{ questionId: string }> | undefined;
        questionId = open?.[0]?.questionId ?? "";
        return questionId !== "";
      },
      { timeoutMs: 30_000, description: "the question open" },
    );
    const state = await call("GET", `/v1/sessions/${sessionId}`);
    expect(state.body["openQuestions"]).toEqual([
      expect.objectContaining({ questionId, text: "Which city?", runId: "r1" }),
    ]);
    const answered = await call("POST", `/v1/sessions/${sessionId}/questions/${questionId}`, {
      body: { text: "Paris" },
    });
    expect(answered.status).toBe(202);
    const events = await readEvents(sessionId, typeIs("run.completed"));
    expect(
      JSON.parse(events.find((event) => event.event === "question.answered")!.data),
    ).toMatchObject({ payload: { questionId, text: "Paris" } });
    await waitFor(
      async () =>
        ((await call("GET", `/v1/sessions/${sessionId}`)).body["openQuestions"] as unknown[])
          .length === 0,
      { timeoutMs: 20_000, description: "the question closed" },
    );
  });

  it("steers and cancels a run in progress (202 with the command's messageId, then its verdict)", async () => {
    const sessionId = "rest-cancel";
    await call("POST", `/v1/sessions/${sessionId}/messages`, { body: { text: "/slow 300" } });
    await readEvents(sessionId, typeIs("run.delta"));
    const steered = await call("POST", `/v1/sessions/${sessionId}/steer`, {
      body: { text: "be brief" },
    });
    expect(steered.status).toBe(202);
    const cancelled = await call("POST", `/v1/sessions/${sessionId}/cancel`, {
      body: { runId: "r1", reason: "stop button" },
    });
    expect(cancelled.status).toBe(202);
    const events = await readEvents(sessionId, typeIs("run.cancelled"));
    expect(JSON.parse(events.find((event) => event.event === "run.cancelled")!.data)).toMatchObject(
      { payload: { runId: "r1", reason: "stop button" } },
    );
    // A cancel without a body is accepted too (the session's current run).
    expect((await call("POST", `/v1/sessions/${sessionId}/cancel`)).status).toBe(202);
  });

  it("a token scoped to a prefix gets 403 elsewhere and lists only its sessions; no or a wrong token is 401", async () => {
    const otherSession = await call("GET", "/v1/sessions/rest-hello", { token: TEAM });
    expect(otherSession.status).toBe(403);
    expect(otherSession.body).toMatchObject({ status: 403, code: "forbidden" });
    for (const [method, path, body] of [
      ["POST", "/v1/sessions/rest-x/messages", { text: "hi" }],
      ["POST", "/v1/sessions/rest-hello/cancel", {}],
      ["POST", "/v1/sessions/rest-hello/approvals/call-1", { decision: "approve" }],
      ["GET", "/v1/sessions/rest-hello/events", undefined],
    ] as const) {
      const answer = await call(method, path, { token: TEAM, body });
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    const sessions = (await call("GET", "/v1/sessions", { token: TEAM })).body as Array<{
      sessionId: string;
    }>;
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((summary) => summary.sessionId.startsWith("team-"))).toBe(true);
    const all = (await call("GET", "/v1/sessions")).body as Array<{ sessionId: string }>;
    expect(all.some((summary) => !summary.sessionId.startsWith("team-"))).toBe(true);

    const missing = await call("GET", "/v1/sessions", { token: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ status: 401, code: "unauthorized" });
    expect((await call("GET", "/v1/approvals", { token: "nope" })).status).toBe(401);
    // EventSource cannot send headers: ?access_token= instead.
    const viaQuery = await fetch(
      `${gateway.url}/v1/sessions/team-approve/events?access_token=${TEAM}`,
    );
    expect(viaQuery.status).toBe(200);
    await viaQuery.body?.cancel();
  });

  it("GET of a session without events is 404 session_not_found; a command to it too, and nothing is published", async () => {
    const before = await client.lastSequence();
    const answer = await call("GET", "/v1/sessions/rest-nobody");
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: 404, code: "session_not_found" });
    const approve = await call("POST", "/v1/sessions/rest-nobody/approvals/call-1", {
      body: { decision: "approve" },
    });
    expect(approve.status).toBe(404);
    expect(await client.storedEventCount("rest-nobody")).toBe(0);
    expect(await client.lastSequence()).toBeGreaterThanOrEqual(before);
  });

  it("refuses an SSE cursor past the events stream's end (a cursor of another deployment)", async () => {
    const last = await client.lastSequence();
    const ahead = await call("GET", "/v1/sessions/rest-hello/events", {
      headers: { "last-event-id": `${last + 1000}.2` },
    });
    expect(ahead.status).toBe(400);
    expect(ahead.body).toMatchObject({ status: 400, code: "invalid_request" });
    expect(String(ahead.body["message"])).toContain(`last sequence ${last}`);
    const from = await call("GET", `/v1/sessions/rest-hello/events?from=${last + 1000}`);
    expect(from.status).toBe(400);
  });

  it("answers a CORS preflight for a configured origin, not for another", async () => {
    const preflight = await fetch(`${gateway.url}/v1/sessions/rest-hello/messages`, {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "authorization",
    );
    const other = await fetch(`${gateway.url}/v1/sessions/rest-hello/messages`, {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("documents every /v1 route in /v1/openapi.json, with the protocol's schemas", async () => {
    const doc = (await call("GET", "/v1/openapi.json")).body as unknown as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/v1/sessions/{id}/messages",
        "/v1/sessions/{id}/cancel",
        "/v1/sessions/{id}/steer",
        "/v1/sessions/{id}/approvals/{toolCallId}",
        "/v1/sessions/{id}/questions/{questionId}",
        "/v1/sessions/{id}/events",
        "/v1/sessions/{id}",
        "/v1/sessions",
        "/v1/approvals",
        // Uploads (issue #19, docs/capabilities/media.md).
        "/v1/media",
      ]),
    );
    expect(Object.keys(doc.paths["/v1/sessions/{id}/messages"]!)).toEqual(["post"]);
    expect(Object.keys(doc.components.schemas.UserMessage!.properties!).sort()).toEqual([
      "agent",
      // Media references (issue #19, docs/capabilities/media.md).
      "attachments",
      "clientMessageId",
      "metadata",
      // The scheduling class (docs/operating/flow-control.md).
      "priority",
      "text",
    ]);
    expect(doc.components.schemas.PendingApproval).toBeDefined();
    expect(doc.components.schemas.EventEnvelope).toBeDefined();
  });
});
