import { createRoute, z } from "@hono/zod-openapi";
import { runMachine, sessionMachine, toolCallMachine } from "@troupe/machines";
import { parseAddress } from "@troupe/protocol";
import { assertSessionAccess, type AccessScope } from "../http/access.js";
import type { ConsoleInspector, GatewayApp, GatewayContext } from "../http/gateway-context.js";
import { errorBodySchema, GatewayError } from "../http/gateway-error.js";
import { registerConsoleAssets } from "./console-assets.js";
import {
  activeStateIds,
  machineChart,
  type MachineChart,
  type StateNodeDefinitionLike,
} from "./machine-chart.js";
import { readSessionActors } from "./read-session-actors.js";

/** At most this many actors of one session are inspected per request. */
export const MAX_SESSION_ACTORS = 200;

const charts: readonly MachineChart[] = [
  ["session", sessionMachine],
  ["run", runMachine],
  ["tool", toolCallMachine],
].map(([kind, machine]) =>
  machineChart(
    kind as string,
    (machine as typeof runMachine).root.definition as unknown as StateNodeDefinitionLike,
  ),
);

const json = z.record(z.string(), z.unknown());
const errors = {
  400: {
    description: "Invalid id or address",
    content: { "application/json": { schema: errorBodySchema } },
  },
  401: {
    description: "Missing or unknown token",
    content: { "application/json": { schema: errorBodySchema } },
  },
  403: {
    description: "Out of the token's reach",
    content: { "application/json": { schema: errorBodySchema } },
  },
  503: {
    description: "No console inspector (the gateway has no Redis view)",
    content: { "application/json": { schema: errorBodySchema } },
  },
} as const;
const ok = (description: string, schema: z.ZodType = json) => ({
  200: { description, content: { "application/json": { schema } } },
  ...errors,
});

const chartStateSchema: z.ZodType = z
  .object({
    id: z.string(),
    key: z.string(),
    type: z.string(),
    initial: z.string().optional(),
    description: z.string().optional(),
    states: z.array(z.lazy(() => chartStateSchema)),
    transitions: z.array(
      z.object({ event: z.string(), targets: z.array(z.string()), guards: z.array(z.string()) }),
    ),
  })
  .openapi("ChartState");
const machinesSchema = z
  .object({
    machines: z.array(
      z.object({ kind: z.string(), machineId: z.string(), root: chartStateSchema }),
    ),
  })
  .openapi("MachineCharts");
const sessionActorSchema = z
  .object({
    address: z.string(),
    kind: z.string(),
    id: z.string(),
    role: z.enum(["session", "subagent", "run", "tool", "other"]),
    label: z.string().optional(),
    firstSequence: z.number().int(),
    lastSequence: z.number().int(),
    lastEventType: z.string(),
    machine: z.string().optional(),
    exists: z.boolean(),
    generation: z.number().int().optional(),
    stateValue: z.unknown(),
    status: z.string().optional(),
    activeStates: z.array(z.string()),
  })
  .openapi("SessionActor");
const sessionActorsSchema = z
  .object({ sessionId: z.string(), actors: z.array(sessionActorSchema), truncated: z.boolean() })
  .openapi("SessionActors");

const idParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) });
const actorParams = z.object({
  kind: z.string().openapi({ param: { name: "kind", in: "path" } }),
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
});

/**
 * The web console at `/` and its read routes under `/v1/console` (docs/decisions/0029):
 *
 * - `GET /v1/console/machines` → `{ machines: MachineChart[] }` (session, run,
 *   tool call machines as state trees; needs no inspector).
 * - `GET /v1/console/sessions/:id/actors` → `{ sessionId, actors, truncated }`:
 *   the actors the session's events name, each with its latest snapshot's
 *   generation, state value and active state ids; 404 `session_not_found`.
 * - `GET /v1/console/actors/:kind/:id` → `troupe inspect` as JSON.
 * - `POST /v1/console/actors/:kind/:id/replay` → `troupe replay`'s verdict.
 * - `GET /v1/console/cluster` → `troupe status` as JSON (hosts, shard ownership).
 * - `GET /v1/console/dead-letters?limit=N` → `troupe deadletters` as JSON.
 *
 * All but `machines` read through the {@link ConsoleInspector} (503
 * `unavailable` without one). The per-actor, cluster and dead-letter views
 * span the whole deployment, so they need a token that reaches every session
 * (403 `forbidden` otherwise); a session's actors need access to that session.
 */
export function registerConsoleRoutes(
  app: GatewayApp,
  context: GatewayContext,
  options: { readonly serveAssets: boolean },
): void {
  const inspector = (): ConsoleInspector => {
    if (context.inspector === undefined) {
      throw new GatewayError(
        503,
        "unavailable",
        "This gateway has no console inspector (actors, hosts and dead letters need Redis): start it with `troupe gateway` or `troupe dev`.",
      );
    }
    return context.inspector;
  };

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/console/machines",
      tags: ["console"],
      summary: "Statechart definitions of the session, run and tool call machines",
      responses: ok("The machines as state trees", machinesSchema),
    }),
    (c) => c.json({ machines: charts } as never, 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/console/sessions/{id}/actors",
      tags: ["console"],
      summary: "The actors of a session with their current state",
      request: { params: idParam },
      responses: {
        ...ok("The session's actors", sessionActorsSchema),
        404: {
          description: "The session has no event",
          content: { "application/json": { schema: errorBodySchema } },
        },
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const sessionId = sessionIdOf(id);
      assertSessionAccess(c.var.scope, sessionId);
      const source = inspector();
      const seen = await readSessionActors(context.client, sessionId);
      const entries = seen.slice(0, MAX_SESSION_ACTORS);
      const actors = await Promise.all(
        entries.map(async (entry) => {
          const latest = latestGeneration(await source.inspectActor(entry.address));
          const chart = charts.find((candidate) => candidate.kind === entry.kind);
          return {
            ...entry,
            ...(chart === undefined ? {} : { machine: chart.kind }),
            exists: latest !== undefined,
            ...(latest?.generation === undefined ? {} : { generation: latest.generation }),
            stateValue: latest?.stateValue ?? null,
            ...(latest?.status === undefined ? {} : { status: latest.status }),
            activeStates:
              chart === undefined ? [] : activeStateIds(chart.machineId, latest?.stateValue),
          };
        }),
      );
      return c.json({ sessionId, actors, truncated: seen.length > entries.length } as never, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/console/actors/{kind}/{id}",
      tags: ["console"],
      summary: "Everything stored about one actor (troupe inspect): lease, snapshot generations",
      request: { params: actorParams },
      responses: ok("The inspection"),
    }),
    async (c) => {
      assertFleetAccess(c.var.scope);
      const address = addressOf(c.req.valid("param"));
      return c.json((await inspector().inspectActor(address)) as never, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/console/actors/{kind}/{id}/replay",
      tags: ["console"],
      summary: "Replays an actor's journal and compares with its snapshot (troupe replay)",
      request: { params: actorParams },
      responses: ok("The replay verdict"),
    }),
    async (c) => {
      assertFleetAccess(c.var.scope);
      const address = addressOf(c.req.valid("param"));
      return c.json((await inspector().replayActor(address)) as never, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/console/cluster",
      tags: ["console"],
      summary: "Hosts, shard ownership and streams (troupe status)",
      responses: ok("The cluster status"),
    }),
    async (c) => {
      assertFleetAccess(c.var.scope);
      return c.json((await inspector().clusterStatus()) as never, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/console/dead-letters",
      tags: ["console"],
      summary: "The newest dead letters with their reasons (troupe deadletters)",
      request: {
        query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
      },
      responses: ok("Dead letters, newest first", z.array(json)),
    }),
    async (c) => {
      assertFleetAccess(c.var.scope);
      const { limit } = c.req.valid("query");
      return c.json((await inspector().deadLetters(limit)) as never, 200);
    },
  );

  if (options.serveAssets) registerConsoleAssets(app);
}

/** A session id checked with the protocol's address rules (400 `invalid_request`). */
function sessionIdOf(id: string): string {
  return addressOf({ kind: "session", id }).slice("session/".length);
}

function addressOf({ kind, id }: { kind: string; id: string }): string {
  try {
    const parsed = parseAddress(`${kind}/${id}`);
    return `${parsed.kind}/${parsed.id}`;
  } catch (error) {
    throw new GatewayError(
      400,
      "invalid_request",
      `Not an actor address: ${(error as Error).message}`,
    );
  }
}

/** The deployment-wide views need a token that reaches every session. */
function assertFleetAccess(scope: AccessScope): void {
  if (scope.sessionPrefix !== "") {
    throw new GatewayError(
      403,
      "forbidden",
      "This view spans the whole deployment: it needs a token that reaches every session.",
    );
  }
}

/** The latest generation of an inspection (`generations[0]`, newest first), if any. */
function latestGeneration(
  inspection: unknown,
): { generation?: number; stateValue?: unknown; status?: string } | undefined {
  if (typeof inspection !== "object" || inspection === null) return undefined;
  const generations = (inspection as { generations?: unknown }).generations;
  if (!Array.isArray(generations) || generations.length === 0) return undefined;
  const latest = generations[0] as Record<string, unknown>;
  return {
    ...(typeof latest.generation === "number" ? { generation: latest.generation } : {}),
    stateValue: latest.stateValue,
    ...(typeof latest.status === "string" ? { status: latest.status } : {}),
  };
}
