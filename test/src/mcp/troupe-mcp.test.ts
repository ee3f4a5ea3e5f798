import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { TroupeClient } from "@troupe/client";
import { compareTaskStreamCursors, parseTaskStreamCursor } from "@troupe/client/tasks";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cliEnv,
  runTroupe,
  startTroupeDev,
  troupeBin,
  type TroupeDev,
} from "../support/troupe-cli.js";
import { freePort, startTroupeMcp, type TroupeMcpProcess } from "../support/troupe-mcp-process.js";
import { waitFor } from "../support/wait-for.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** An SDK client of `url` that can answer elicitations with `elicit` (issue #15). */
async function connectClient(
  url: string,
  options: {
    token?: string;
    elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  } = {},
): Promise<Client> {
  const client = new Client(
    { name: "troupe-mcp-test", version: "1.0.0" },
    { capabilities: options.elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (options.elicit !== undefined) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => await elicit(request));
  }
  const headers: Record<string, string> =
    options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

const textOf = (result: unknown) =>
  (CallToolResultSchema.parse(result).content[0] as { type: "text"; text: string }).text;

// `troupe mcp` as a real child process of the CLI, against a `troupe dev`
// (real nats-server and redis-server, the demo agent with its scripted model),
// driven by the official SDK's Client (issue #15).
describe("troupe mcp serves the agents of a troupe dev over MCP", () => {
  let dev: TroupeDev;
  let troupe: TroupeClient;
  const started: TroupeMcpProcess[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    dev = await startTroupeDev();
    troupe = await TroupeClient.connect({
      natsUrl: (await dev.state()).natsUrl,
      prefix: (await dev.state()).prefix,
    });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const process of started) await process.stop("SIGKILL");
    await troupe?.close();
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  const mcp = async (args: string[], env: Record<string, string> = {}) => {
    const process = await startTroupeMcp(dev.home, args, env);
    started.push(process);
    return process;
  };
  const client = async (url: string, options: Parameters<typeof connectClient>[1] = {}) => {
    const connected = await connectClient(url, options);
    clients.push(connected);
    return connected;
  };

  it("a plain call returns the answer, continues a session, streams progress, and the transcript is a resource", async () => {
    const server = await mcp(["--port", "0"]);
    expect(server.output()).toMatch(
      /troupe mcp: serving demo at http:\/\/127\.0\.0\.1:\d+\/mcp \(no token: loopback only\)/,
    );
    const sdk = await client(server.url);
    const { tools } = await sdk.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["demo"]);
    expect(tools[0]!.description).toContain("You are the Troupe demo agent.");
    expect(tools[0]!.inputSchema.required).toEqual(["message"]);
    expect(tools[0]!.execution?.taskSupport).toBe("optional");

    const progress: string[] = [];
    const first = await sdk.callTool(
      { name: "demo", arguments: { message: "what time is it in Tokyo?" } },
      undefined,
      { onprogress: (notification) => progress.push(notification.message ?? "") },
    );
    expect(first.isError).toBeUndefined();
    expect(textOf(first)).toMatch(/^It is \d{2}:\d{2} in Asia\/Tokyo\.$/);
    const structured = first.structuredContent as {
      sessionId: string;
      runId: string;
      state: string;
      taskId: string;
    };
    expect(structured.state).toBe("completed");
    expect(structured.sessionId).toMatch(/^mcp-[0-9a-f-]{36}$/);
    expect(structured.taskId.startsWith(`${structured.sessionId}.`)).toBe(true);
    // The streamed text deltas came as progress notifications, in order.
    expect(progress.join("")).toBe(textOf(first));

    const second = await sdk.callTool({
      name: "demo",
      arguments: { message: "remember to water the plants", sessionId: structured.sessionId },
    });
    expect(textOf(second)).toBe('Saved your note "to water the plants". You have 1 note.');
    expect((second.structuredContent as { sessionId: string }).sessionId).toBe(
      structured.sessionId,
    );

    const { resourceTemplates } = await sdk.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "troupe://sessions/{sessionId}/transcript",
    ]);
    const transcript = await sdk.readResource({
      uri: `troupe://sessions/${structured.sessionId}/transcript`,
    });
    const text = (transcript.contents[0] as { text: string }).text;
    const marks = [
      "what time is it in Tokyo?",
      "`clock`",
      textOf(first),
      "remember to water the plants",
      textOf(second),
    ];
    let position = -1;
    for (const mark of marks) {
      const next = text.indexOf(mark, position + 1);
      expect(next, `"${mark}" after ${position} in:\n${text}`).toBeGreaterThan(position);
      position = next;
    }

    // A caller's idempotency key in _meta (what a Troupe host sends): a retry
    // answers with the first call's run, no second run.
    const keyed = {
      name: "demo",
      arguments: { message: "what time is it in Tokyo?" },
      _meta: { "dev.troupe/idempotency-key": `caller/${structured.runId}/call-1` },
    };
    const once = (await sdk.callTool(keyed)).structuredContent as {
      sessionId: string;
      runId: string;
    };
    const again = (await sdk.callTool(keyed)).structuredContent as {
      sessionId: string;
      runId: string;
    };
    expect(again).toMatchObject({ sessionId: once.sessionId, runId: once.runId });
    expect(once.sessionId).toMatch(/^mcp-[0-9a-f]{40}$/);

    // Bad input is a JSON-RPC error naming the field, not a crash.
    await expect(sdk.callTool({ name: "demo", arguments: { message: "" } })).rejects.toThrow(
      /message must be a non-empty string/,
    );
    await expect(sdk.callTool({ name: "nobody", arguments: { message: "hi" } })).rejects.toThrow(
      /Unknown tool "nobody"/,
    );
    await expect(sdk.experimental.tasks.getTask("not-a-task")).rejects.toThrow(/Task not found/);
    // A well-formed id whose message never reached its session: result and
    // cancel say so after the admission timeout (10 s) instead of waiting forever.
    const stale = `${structured.sessionId}.no-such-message`;
    await Promise.all([
      expect(sdk.experimental.tasks.getTaskResult(stale, CallToolResultSchema)).rejects.toThrow(
        /Task not found: Unknown task ".+": no message of it reached session/,
      ),
      expect(sdk.experimental.tasks.cancelTask(stale)).rejects.toThrow(/Unknown task/),
    ]);
  }, 90_000);

  it("an approval arrives as an elicitation; accepting it completes the run, denying it tells the model", async () => {
    const server = await mcp(["--port", "0"]);
    const asked: ElicitRequest[] = [];
    const sdk = await client(server.url, {
      elicit: (request) => {
        asked.push(request);
        return { action: "accept", content: { approve: true } };
      },
    });
    const result = await sdk.callTool({
      name: "demo",
      arguments: { message: "email ada@example.com about the launch on Friday" },
    });
    expect(textOf(result)).toBe("Sent the email to ada@example.com.");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params.message).toMatch(
      /send_email .*"to":"ada@example.com".*Approve this call\?/,
    );

    // approve: false denies, and the model is told the reason.
    const denying = await client(server.url, {
      elicit: () => ({ action: "accept", content: { approve: false, reason: "not now" } }),
    });
    const denied = await denying.callTool({
      name: "demo",
      arguments: { message: "email ada@example.com about the launch on Friday" },
    });
    expect(textOf(denied)).toBe("I did not send the email: you denied it (not now).");
  }, 90_000);

  it("an ask_user question arrives as an elicitation; the accepted answer reaches the run", async () => {
    const server = await mcp(["--port", "0"]);
    const asked: ElicitRequest[] = [];
    // An answer that does not fit the form is an error at once, not a wait.
    const confused = await client(server.url, {
      elicit: () => ({ action: "accept", content: { approve: true } }),
    });
    await expect(
      confused.callTool({
        name: "demo",
        arguments: { message: '/tool ask_user {"question":"Which city?"}' },
      }),
    ).rejects.toThrow(
      /does not fit the requested form \{ answer: string \}; the question stays open/,
    );
    const sdk = await client(server.url, {
      elicit: (request) => {
        asked.push(request);
        return { action: "accept", content: { answer: "Oslo" } };
      },
    });
    const result = await sdk.callTool({
      name: "demo",
      arguments: { message: '/tool ask_user {"question":"Which city do you live in?"}' },
    });
    expect(asked.map((request) => request.params.message)).toEqual(["Which city do you live in?"]);
    expect(textOf(result)).toContain("Oslo");
    expect((result.structuredContent as { state: string }).state).toBe("completed");
  }, 90_000);

  it("a task-augmented call survives a restart of troupe mcp between tools/call and tasks/result", async () => {
    const port = String(await freePort());
    const first = await mcp(["--port", port]);
    const before = await client(first.url);
    const created = await before.request(
      {
        method: "tools/call",
        params: {
          name: "demo",
          arguments: { message: "email grace@example.com the quarterly numbers" },
          task: { ttl: 600_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    expect(created.task.status).toBe("working");
    // The run waits for the approval: the task is input_required.
    await waitFor(
      async () => (await before.experimental.tasks.getTask(taskId)).status === "input_required",
      {
        timeoutMs: 30_000,
        description: "task input_required",
      },
    );
    await before.close().catch(() => undefined);
    expect(await first.stop("SIGKILL")).toBeNull();

    // A new process on the same port, nothing carried over but the deployment.
    const second = await mcp(["--port", port]);
    const asked: ElicitRequest[] = [];
    const after = await client(second.url, {
      elicit: (request) => {
        asked.push(request);
        return { action: "accept", content: { approve: true } };
      },
    });
    const task = await after.experimental.tasks.getTask(taskId);
    expect(task.status).toBe("input_required");
    expect(task.statusMessage).toBe("waiting for approval of send_email");
    const result = await after.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("Sent the email to grace@example.com.");
    expect(asked).toHaveLength(1);
    expect((await after.experimental.tasks.getTask(taskId)).status).toBe("completed");
    // tasks/result again gives the same answer (read from the events, not memory).
    expect(textOf(await after.experimental.tasks.getTaskResult(taskId, CallToolResultSchema))).toBe(
      "Sent the email to grace@example.com.",
    );
  }, 120_000);

  it("tasks/result with the cursor of the last progress it got resumes after a SIGKILL and restart of troupe mcp: every text delta once, in order", async () => {
    const port = String(await freePort());
    const first = await mcp(["--port", port]);
    const before = await client(first.url);
    const created = await before.request(
      {
        method: "tools/call",
        params: { name: "demo", arguments: { message: "/slow 300" }, task: {} },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    /** The text and cursor of each progress notification. */
    type Progress = { text: string; cursor: string };
    const progressOf = (notification: { message?: string; _meta?: Record<string, unknown> }) => ({
      text: notification.message ?? "",
      cursor: notification._meta?.["dev.troupe/cursor"] as string,
    });
    const received: Progress[] = [];
    let threeChunks!: () => void;
    const streaming = new Promise<void>((resolve) => (threeChunks = resolve));
    const cut = before
      .request({ method: "tasks/result", params: { taskId } }, CallToolResultSchema, {
        onprogress: (notification) => {
          received.push(progressOf(notification));
          if (received.length === 3) threeChunks();
        },
      })
      .catch((error: unknown) => error);
    await streaming;
    expect(await first.stop("SIGKILL")).toBeNull();
    // The client would wait for the lost response until its request timeout: close it.
    await before.close();
    expect(await cut).toBeInstanceOf(Error);
    const last = received.at(-1)!.cursor;

    const second = await mcp(["--port", port]);
    const after = await client(second.url);
    const resumed: Progress[] = [];
    const result = await after.request(
      { method: "tasks/result", params: { taskId, _meta: { "dev.troupe/cursor": last } } },
      CallToolResultSchema,
      { onprogress: (notification) => resumed.push(progressOf(notification)) },
    );
    const answer = textOf(result);
    expect(answer).toMatch(/^This answer streams slowly, one word at a time/);
    expect(resumed.length).toBeGreaterThan(0);
    const all = [...received, ...resumed];
    expect(all.map((progress) => progress.text).join("")).toBe(answer);
    const cursors = all.map((progress) => parseTaskStreamCursor(progress.cursor));
    for (let index = 1; index < cursors.length; index++) {
      expect(compareTaskStreamCursors(cursors[index - 1]!, cursors[index]!)).toBeLessThan(0);
    }
    // A malformed cursor is refused before anything is read.
    await expect(
      after.request(
        { method: "tasks/result", params: { taskId, _meta: { "dev.troupe/cursor": "41" } } },
        CallToolResultSchema,
      ),
    ).rejects.toThrow(/is not a task stream cursor/);
  }, 90_000);

  it("tasks/cancel cancels the run (run.cancelled on the session's events)", async () => {
    const server = await mcp(["--port", "0"]);
    const sdk = await client(server.url);
    const created = await sdk.request(
      {
        method: "tools/call",
        params: {
          name: "demo",
          arguments: { message: "email alan@example.com the draft" },
          task: {},
        },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    await waitFor(
      async () => (await sdk.experimental.tasks.getTask(taskId)).status === "input_required",
      {
        timeoutMs: 30_000,
        description: "task input_required",
      },
    );
    const cancelled = await sdk.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe("cancelled");
    const sessionId = taskId.split(".")[0]!;
    const types: string[] = [];
    for await (const { event } of troupe.events(sessionId, { fromSequence: 1 })) {
      types.push(event.type);
      if (event.type === "run.cancelled") break;
    }
    expect(types).toContain("tool.approval_requested");
    expect(types.at(-1)).toBe("run.cancelled");
    expect((await sdk.experimental.tasks.getTask(taskId)).status).toBe("cancelled");
    await expect(sdk.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/already cancelled/);
  }, 90_000);

  it("HTTP with a token refuses requests without it or with a wrong one (401), stops on SIGTERM; no token on a non-loopback host is refused", async () => {
    const server = await mcp(["--port", "0"], { TROUPE_MCP_TOKEN: "s3cret-token" });
    expect(server.output()).toContain("(bearer token required)");
    const initialize = (authorization?: string) =>
      fetch(server.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...(authorization === undefined ? {} : { Authorization: authorization }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        }),
      });
    expect((await initialize()).status).toBe(401);
    expect((await initialize("Bearer wrong-token")).status).toBe(401);
    const sdk = await client(server.url, { token: "s3cret-token" });
    expect((await sdk.listTools()).tools.map((tool) => tool.name)).toEqual(["demo"]);
    // A plain call in flight when its MCP session ends (the client terminates
    // it; a stopping troupe mcp closes it the same way): the run is not
    // cancelled (a disconnect never cancels a run) and completes.
    const sessionId = `mcp-gone-${Date.now()}`;
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: "Bearer s3cret-token" } },
    });
    const leaving = new Client({ name: "leaving", version: "1.0.0" });
    await leaving.connect(transport);
    let streamed!: () => void;
    const streaming = new Promise<void>((resolve) => (streamed = resolve));
    const inFlight = leaving
      .callTool({ name: "demo", arguments: { message: "/slow 100", sessionId } }, undefined, {
        onprogress: () => streamed(),
      })
      .catch((error: unknown) => error);
    await streaming;
    await transport.terminateSession();
    await leaving.close();
    expect(await inFlight).toBeInstanceOf(Error);
    let end: string | undefined;
    for await (const { event } of troupe.events(sessionId, {
      fromSequence: 1,
      signal: AbortSignal.timeout(30_000),
    })) {
      if (event.type === "run.completed" || event.type === "run.cancelled") {
        end = event.type;
        break;
      }
    }
    expect(end).toBe("run.completed");
    // Graceful shutdown on SIGTERM: sessions closed, connections closed, exit 0.
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.output()).toContain("troupe mcp: SIGTERM, stopping");

    const refused = await runTroupe(["mcp", "--host", "0.0.0.0", "--port", "0"], {
      home: dev.home,
      timeoutMs: 30_000,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("troupe mcp refuses to listen on 0.0.0.0 without a token");
    const unknown = await runTroupe(["mcp", "--agent", "nobody", "--port", "0"], {
      home: dev.home,
      timeoutMs: 30_000,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("The agent module defines no agent nobody; it defines demo.");
  }, 90_000);

  it("serves over stdio for a client that starts it", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [troupeBin, "mcp", "--stdio"],
      cwd: repositoryRoot,
      env: cliEnv(dev.home) as Record<string, string>,
      stderr: "pipe",
    });
    const sdk = new Client({ name: "troupe-mcp-stdio-test", version: "1.0.0" });
    clients.push(sdk);
    await sdk.connect(transport);
    const result = await sdk.callTool({
      name: "demo",
      arguments: { message: "what time is it in Paris?" },
    });
    expect(textOf(result)).toMatch(/^It is \d{2}:\d{2} in Europe\/Paris\.$/);
    await sdk.close();
  }, 90_000);
});
