import { createRoute, z } from "@hono/zod-openapi";
import type { CommandReceipt } from "@troupe/client";
import { awaitFleetReady } from "../fleet/await-fleet-ready.js";
import { assertSessionAccess } from "../http/access.js";
import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";
import { errorBodySchema, GatewayError } from "../http/gateway-error.js";
import { BEARER_SECURITY, errorResponses, json } from "./openapi-parts.js";
import { gatewayErrorOf } from "./client-error.js";
import {
  answerBodySchema,
  approvalBodySchema,
  approvalParamsSchema,
  cancelBodySchema,
  commandReceiptSchema,
  listSessionsQuerySchema,
  pendingApprovalSchema,
  questionParamsSchema,
  sendMessageBodySchema,
  sendReceiptSchema,
  sessionParamsSchema,
  sessionStateSchema,
  sessionSummarySchema,
  steerBodySchema,
} from "./rest-schemas.js";
import { registerSessionEventsRoute } from "./session-events-route.js";

const commandResponses = {
  202: json(
    commandReceiptSchema,
    "Stored in the inbox stream; the session answers with a verdict (command.settled or " +
      "message.rejected naming messageId) on GET /v1/sessions/{id}/events.",
  ),
  404: json(errorBodySchema, "session_not_found: the session has no event"),
  ...errorResponses,
} as const;

const body = <T extends z.ZodType>(schema: T, required = true) => ({
  body: { content: { "application/json": { schema } }, required },
});

const postCommand = <P extends z.ZodObject, B extends z.ZodType>(
  path: string,
  summary: string,
  params: P,
  bodySchema: B,
  required = true,
) =>
  createRoute({
    method: "post",
    path,
    summary,
    tags: ["sessions"],
    security: BEARER_SECURITY,
    request: { params, ...body(bodySchema, required) },
    responses: commandResponses,
  });

/**
 * Registers the `/v1` REST + SSE routes (docs/decisions/0028), each documented in
 * `/v1/openapi.json`:
 *
 * - `POST /v1/sessions/{id}/messages` `{ text, clientMessageId?, agent?, metadata? }` → 202 SendReceipt;
 * - `POST /v1/sessions/{id}/cancel` `{ runId?, reason? }` → 202 CommandReceipt (stop, not disconnect);
 * - `POST /v1/sessions/{id}/steer` `{ text, runId? }` → 202;
 * - `POST /v1/sessions/{id}/approvals/{toolCallId}` `{ decision, note?, reason?, subagentSessionId? }` → 202;
 * - `POST /v1/sessions/{id}/questions/{questionId}` `{ text, subagentSessionId? }` → 202;
 * - `GET /v1/sessions/{id}/events` — SSE (see `session-events-route.ts`);
 * - `GET /v1/sessions/{id}` → SessionState, 404 `session_not_found`;
 * - `GET /v1/sessions?limit=N` → SessionSummary[], recent first;
 * - `GET /v1/approvals` → PendingApproval[], oldest first.
 *
 * Every session id is checked with the protocol's rules (400), then against
 * the token's scope (403); lists hold only what the scope reaches. Bodies are
 * the protocol's payload schemas, so a body the session would refuse is a 400
 * and nothing is published. Commands (not messages, which create sessions)
 * to a session without any event are a 404.
 *
 * @param app - the gateway app.
 * @param context - the shared context.
 */
export function registerRestRoutes(app: GatewayApp, context: GatewayContext): void {
  const { client } = context;
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description:
      "A gateway token (or ?access_token= for EventSource); none when none is configured.",
  });

  /** Runs a client call, answering its failures as gateway errors. */
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw gatewayErrorOf(error);
    }
  };
  /** A command needs a session with at least one event: nothing is published otherwise. */
  const assertSessionExists = async (sessionId: string) => {
    if ((await call(() => client.storedEventCount(sessionId))) === 0) {
      throw sessionNotFound(sessionId);
    }
  };
  const receipt = (r: CommandReceipt) => ({
    sessionId: r.sessionId,
    messageId: r.messageId,
    streamSequence: r.streamSequence,
  });

  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/sessions/{id}/messages",
      summary: "Send a user message (creates the session on its first message)",
      description:
        "Idempotent by clientMessageId: a retry is stored once (duplicate: true) or answered " +
        "by the session with message.duplicate; no second run starts.",
      tags: ["sessions"],
      security: BEARER_SECURITY,
      request: { params: sessionParamsSchema, ...body(sendMessageBodySchema) },
      responses: {
        202: json(sendReceiptSchema, "Stored in the inbox stream"),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      assertSessionAccess(c.var.scope, id);
      const sent = await call(() => client.send(id, c.req.valid("json")));
      return c.json(
        {
          sessionId: sent.sessionId,
          messageId: sent.messageId,
          clientMessageId: sent.clientMessageId,
          streamSequence: sent.streamSequence,
          duplicate: sent.duplicate,
        },
        202,
      );
    },
  );

  app.openapi(
    postCommand(
      "/v1/sessions/{id}/cancel",
      "Cancel a run (default: the session's current run); closing a stream never does",
      sessionParamsSchema,
      cancelBodySchema,
      false,
    ),
    async (c) => {
      const { id } = c.req.valid("param");
      assertSessionAccess(c.var.scope, id);
      const { runId, reason } = c.req.valid("json");
      await assertSessionExists(id);
      const sent = await call(() =>
        client.cancel(id, {
          ...(runId === undefined ? {} : { runId }),
          ...(reason === undefined ? {} : { reason }),
        }),
      );
      return c.json(receipt(sent), 202);
    },
  );

  app.openapi(
    postCommand(
      "/v1/sessions/{id}/steer",
      "Add guidance to the run in progress",
      sessionParamsSchema,
      steerBodySchema,
    ),
    async (c) => {
      const { id } = c.req.valid("param");
      assertSessionAccess(c.var.scope, id);
      const { text, runId } = c.req.valid("json");
      await assertSessionExists(id);
      const sent = await call(() => client.steer(id, text, runId === undefined ? {} : { runId }));
      return c.json(receipt(sent), 202);
    },
  );

  app.openapi(
    postCommand(
      "/v1/sessions/{id}/approvals/{toolCallId}",
      "Approve or deny a tool call waiting for approval",
      approvalParamsSchema,
      approvalBodySchema,
    ),
    async (c) => {
      const { id, toolCallId } = c.req.valid("param");
      assertSessionAccess(c.var.scope, id);
      const decision = c.req.valid("json");
      await assertSessionExists(id);
      const owner =
        decision.subagentSessionId === undefined
          ? {}
          : { subagentSessionId: decision.subagentSessionId };
      const sent = await call(() =>
        decision.decision === "approve"
          ? client.approve(id, toolCallId, {
              ...owner,
              ...(decision.note === undefined ? {} : { note: decision.note }),
            })
          : client.deny(id, toolCallId, {
              ...owner,
              ...(decision.reason === undefined ? {} : { reason: decision.reason }),
            }),
      );
      return c.json(receipt(sent), 202);
    },
  );

  app.openapi(
    postCommand(
      "/v1/sessions/{id}/questions/{questionId}",
      "Answer a question the agent asked (ask_user)",
      questionParamsSchema,
      answerBodySchema,
    ),
    async (c) => {
      const { id, questionId } = c.req.valid("param");
      assertSessionAccess(c.var.scope, id);
      const answer = c.req.valid("json");
      await assertSessionExists(id);
      const sent = await call(() =>
        client.answer(
          id,
          questionId,
          answer.text,
          answer.subagentSessionId === undefined
            ? {}
            : { subagentSessionId: answer.subagentSessionId },
        ),
      );
      return c.json(receipt(sent), 202);
    },
  );

  registerSessionEventsRoute(app, context);

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/sessions/{id}",
      summary: "A session's state, run in progress, pending approvals and open questions",
      tags: ["sessions"],
      security: BEARER_SECURITY,
      request: { params: sessionParamsSchema },
      responses: {
        200: json(sessionStateSchema, "The session as its events tell"),
        404: json(errorBodySchema, "session_not_found: the session has no event"),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      assertSessionAccess(c.var.scope, id);
      await awaitFleetReady(context.fleet);
      const summary = await call(() => context.fleet.session(id));
      if (summary === undefined) throw sessionNotFound(id);
      const [approvals, questions] = await call(() =>
        Promise.all([context.fleet.sessionApprovals(id), context.fleet.openQuestions(id)]),
      );
      return c.json({ ...summary, pendingApprovals: approvals, openQuestions: questions }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/sessions",
      summary: "Recent sessions the token reaches, most recent first",
      tags: ["sessions"],
      security: BEARER_SECURITY,
      request: { query: listSessionsQuerySchema },
      responses: {
        200: json(z.array(sessionSummarySchema), "From the gateway's fleet index"),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { limit } = c.req.valid("query");
      await awaitFleetReady(context.fleet);
      return c.json(await context.fleet.recentSessions(c.var.scope, limit), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/approvals",
      summary: "Pending approvals of every session the token reaches, oldest first",
      tags: ["approvals"],
      security: BEARER_SECURITY,
      responses: {
        200: json(z.array(pendingApprovalSchema), "From the gateway's fleet index"),
        ...errorResponses,
      },
    }),
    async (c) => {
      await awaitFleetReady(context.fleet);
      return c.json(await context.fleet.pendingApprovals(c.var.scope), 200);
    },
  );
}

function sessionNotFound(sessionId: string): GatewayError {
  return new GatewayError(
    404,
    "session_not_found",
    `Session ${sessionId} has no event: send it a message first (POST /v1/sessions/${sessionId}/messages).`,
  );
}
