import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { isValidActorId, TroupeError, type TranscriptEntry } from "@troupe/protocol";
import {
  cursorHoldsEnd,
  InvalidTaskIdError,
  isFinalRunTaskState,
  parseRunTaskId,
} from "@troupe/client/tasks";
import type { RunTasks, PendingInput, RunTaskStatus, TaskStreamCursor } from "@troupe/client/tasks";
import {
  agentTool,
  idempotentTarget,
  parseAgentToolArguments,
  type ServedAgent,
} from "./agent-tool.js";
import { AnswerProgress, MCP_CURSOR_META_KEY, resumeCursorOfMeta } from "./answer-progress.js";
import { decisionFrom, elicitationFor } from "./elicitation.js";
import { callToolResultOf, mcpTaskOf } from "./mcp-task.js";
import { formatTranscript } from "./session-transcript.js";

/** The URI template of a session's transcript resource. */
export const TRANSCRIPT_URI_TEMPLATE = "troupe://sessions/{sessionId}/transcript";

/** How long an elicitation request waits for the MCP client's user, in ms: 1 hour. */
const ELICITATION_TIMEOUT_MS = 3_600_000;

/** What {@link createTroupeMcpServer} serves with. */
export interface TroupeMcpServerOptions {
  /** The agents served, one tool each. */
  readonly agents: readonly ServedAgent[];
  /** Run tasks of the deployment (its client). */
  readonly tasks: RunTasks;
  /** Reads a session's transcript entries (for the transcript resource). */
  readonly readTranscript: (sessionId: string) => Promise<TranscriptEntry[]>;
  /** Server name and version announced in `initialize`. */
  readonly version: string;
  /** The current time, Unix ms; default `Date.now` (task times before admission). */
  readonly nowMs?: () => number;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * An MCP server (the SDK's low-level `Server`, protocol 2025-11-25) that serves
 * a Troupe deployment's agents (docs/decisions/0025):
 *
 * - `tools/list`: one tool per agent ({@link agentTool}); `tools/call` sends
 *   the message to the session (a new one without `sessionId`) and waits for
 *   the run, sending `notifications/progress` with the streamed text when the
 *   request has a progress token (each with its cursor in
 *   `_meta["dev.troupe/cursor"]`, docs/decisions/0056), and putting approvals and questions to the
 *   user as `elicitation/create` requests when the client supports elicitation.
 * - With `task` in `tools/call` (MCP tasks): it returns at once with the task;
 *   `tasks/get`, `tasks/result` (which elicits approvals and questions, then
 *   returns the tool result; with `_meta["dev.troupe/cursor"]` its progress
 *   starts after that cursor) and `tasks/cancel` (`run.cancel`) read and change
 *   the run through {@link RunTasks}: the task id is the session and client
 *   message id, the state is the session's events, so they work in any
 *   process, also after a restart. No `tasks/list`: tasks are not enumerable
 *   without state of our own.
 * - `resources/templates/list`, `resources/read`: the transcript of a session,
 *   `troupe://sessions/{sessionId}/transcript` (Markdown).
 *
 * One server per MCP session (the Streamable HTTP transport creates one per
 * client session); they share `tasks`.
 *
 * @param options - see {@link TroupeMcpServerOptions}.
 * @returns the server, not yet connected to a transport.
 */
export function createTroupeMcpServer(options: TroupeMcpServerOptions): Server {
  const { tasks, agents } = options;
  const nowMs = options.nowMs ?? Date.now;
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  const server = new Server(
    { name: "troupe", title: "Troupe agents", version: options.version },
    {
      capabilities: {
        tools: {},
        resources: {},
        tasks: { cancel: {}, requests: { tools: { call: {} } } },
      },
      instructions:
        "Each tool is a Troupe agent: send it a message, get its answer. Pass the sessionId " +
        "of an answer to continue that conversation. Tool calls may run as tasks.",
    },
  );

  /** Puts one open approval or question to the client's user; whether it settled it. */
  const ask = async (taskId: string, pending: PendingInput, extra: Extra): Promise<boolean> => {
    const result = await server.request(
      { method: "elicitation/create", params: elicitationFor(pending, taskId) },
      ElicitResultSchema,
      { relatedRequestId: extra.requestId, signal: extra.signal, timeout: ELICITATION_TIMEOUT_MS },
    );
    const decision = decisionFrom(pending, result);
    if (decision === undefined && result.action === "accept") {
      // An accepted answer that does not fit the form would otherwise leave the
      // caller waiting on a wait nobody settles: say so at once.
      const form =
        pending.kind === "approval" ? "{ approve: boolean, reason? }" : "{ answer: string }";
      throw new McpError(
        ErrorCode.InvalidParams,
        `The elicitation answer does not fit the requested form ${form}; the ${pending.kind} stays open in session ${pending.sessionId} (task ${taskId}).`,
      );
    }
    if (decision === undefined) return false;
    await tasks.settle(taskId, pending, decision);
    return true;
  };

  /**
   * Follows a task to its end, asking each approval and question once (when
   * the client can elicit) and sending progress (when asked to): each text
   * delta of the run after `after` once, with its cursor in
   * `_meta["dev.troupe/cursor"]` ({@link AnswerProgress}).
   */
  const runToEnd = async (
    taskId: string,
    extra: Extra,
    after?: TaskStreamCursor,
  ): Promise<RunTaskStatus> => {
    const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
    const progressToken = extra._meta?.progressToken;
    const asked = new Set<string>();
    const answer = new AnswerProgress(after);
    let progress = 0;
    const notify = async (message: string, cursor?: string) => {
      if (progressToken === undefined) return;
      progress += 1;
      await extra
        .sendNotification({
          method: "notifications/progress",
          params: {
            progressToken,
            progress,
            message,
            ...(cursor === undefined ? {} : { _meta: { [MCP_CURSOR_META_KEY]: cursor } }),
          },
        })
        .catch(() => undefined);
    };
    for (;;) {
      answer.restart();
      const status = await tasks.follow(taskId, {
        signal: extra.signal,
        onEvent: (event, current) => {
          for (const { item, cursor } of answer.read(event, current)) void notify(item, cursor);
        },
        until: (current) =>
          current.pending !== undefined && !asked.has(pendingKey(current.pending)),
      });
      if (isFinalRunTaskState(status.state)) return status;
      const pending = status.pending!;
      asked.add(pendingKey(pending));
      const what =
        pending.kind === "approval"
          ? `waiting for approval of ${pending.tool}`
          : `waiting for an answer: ${pending.text}`;
      await notify(what);
      if (canElicit) await ask(taskId, pending, extra);
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: agents.map(agentTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const agent = byName.get(request.params.name);
    if (agent === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(request.params.name)}: this server serves ${[...byName.keys()].join(", ")}.`,
      );
    }
    const input = parseAgentToolArguments(request.params.arguments);
    // A caller that sends an idempotency key (a Troupe host does) retries
    // without starting a second run.
    const idempotent = idempotentTarget(request.params._meta);
    const sessionId = input.sessionId ?? idempotent?.sessionId;
    const started = await guard(() =>
      tasks.start({
        agent: agent.name,
        text: input.message,
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(idempotent === undefined ? {} : { clientMessageId: idempotent.clientMessageId }),
      }),
    );
    if (request.params.task !== undefined) {
      return { task: mcpTaskOf(started.taskId, { state: "working", sequence: 0 }, nowMs()) };
    }
    let status: RunTaskStatus;
    try {
      status = await runToEnd(started.taskId, extra);
    } catch (error) {
      // The client cancelled the request (notifications/cancelled): cancel the
      // run too. A closed connection (troupe mcp stopping, the session ended)
      // aborts the request as well, but the SDK has dropped the transport by
      // then: the run goes on, as a disconnect never cancels a run.
      if (extra.signal.aborted && server.transport !== undefined) {
        await tasks
          .cancel(started.taskId, { reason: "the MCP request was cancelled" })
          .catch(() => undefined);
      }
      throw error;
    }
    return callToolResultOf(started, status);
  });

  server.setRequestHandler(GetTaskRequestSchema, async (request) => {
    const { taskId } = request.params;
    const status = await guard(() => tasks.status(taskId));
    return mcpTaskOf(taskId, status, nowMs());
  });

  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const { taskId } = request.params;
    const ref = guardSync(() => parseRunTaskId(taskId));
    const after = guardSync(() => resumeCursorOfMeta(request.params._meta));
    // A cursor that holds the task's end: its result, with no progress again.
    const now = after === undefined ? undefined : await guard(() => tasks.status(taskId));
    const status =
      now !== undefined && cursorHoldsEnd(after, now)
        ? now
        : await guard(() => runToEnd(taskId, extra, after));
    return callToolResultOf({ ...ref, taskId }, status, true);
  });

  server.setRequestHandler(CancelTaskRequestSchema, async (request) => {
    const { taskId } = request.params;
    const before = await guard(() => tasks.status(taskId));
    if (isFinalRunTaskState(before.state)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Cannot cancel task ${taskId}: it is already ${before.state}.`,
      );
    }
    const after = await guard(() =>
      tasks.cancel(taskId, { reason: "tasks/cancel from the MCP client" }),
    );
    return mcpTaskOf(taskId, after, nowMs());
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        name: "session-transcript",
        title: "Session transcript",
        uriTemplate: TRANSCRIPT_URI_TEMPLATE,
        description:
          "The conversation of a Troupe session: user messages, answers, tool calls and results (Markdown).",
        mimeType: "text/markdown",
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const sessionId = /^troupe:\/\/sessions\/([^/]+)\/transcript$/.exec(uri)?.[1];
    if (sessionId === undefined || !isValidActorId(sessionId)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource ${JSON.stringify(uri)}: this server has ${TRANSCRIPT_URI_TEMPLATE}.`,
      );
    }
    const entries = await guard(() => options.readTranscript(sessionId));
    return {
      contents: [{ uri, mimeType: "text/markdown", text: formatTranscript(sessionId, entries) }],
    };
  });

  return server;
}

/** Identifies an approval or question across reads of the events. */
function pendingKey(pending: PendingInput): string {
  const id = pending.kind === "approval" ? pending.toolCallId : pending.questionId;
  return `${pending.kind} ${pending.sessionId} ${id}`;
}

/** Troupe errors a client caused (bad ids, bad input) as `InvalidParams`; others as they are. */
async function guard<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw toMcpError(error);
  }
}

function guardSync<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw toMcpError(error);
  }
}

function toMcpError(error: unknown): unknown {
  if (InvalidTaskIdError.isInstance(error)) {
    return new McpError(ErrorCode.InvalidParams, `Task not found: ${error.message}`);
  }
  if (TroupeError.isInstance(error) && !error.retryable && error.code !== "internal") {
    return new McpError(ErrorCode.InvalidParams, error.message, { code: error.code });
  }
  return error;
}
