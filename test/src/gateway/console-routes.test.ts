/**
 * The web console's read routes (issue #16) against a `troupe dev` with the
 * demo agent: the machines as state trees, a session's actors with the state
 * their snapshots hold, an actor's snapshot generations and replay verdict,
 * hosts and shard ownership, dead letters with their reasons — and the
 * refusals: 400 for a bad address, 404 for a session without events, 403 for
 * a token scoped to a prefix, 503 without an inspector.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "@nats-io/transport-node";
import { TroupeClient } from "@troupe/client";
import { serveGateway } from "@troupe/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { startTroupeGateway } from "../support/troupe-gateway-process.js";
import { waitFor } from "../support/wait-for.js";

interface Answer<T> {
  status: number;
  body: T;
}

/** An error body of the gateway (the fields these tests read). */
interface ErrorBody {
  code: string;
}

interface Generation {
  generation: number;
  latest: boolean;
  stateValue: unknown;
}

interface SessionActor {
  address: string;
  role: string;
  activeStates: string[];
  generation?: number;
  label?: string;
}

describe("the console's read routes (issue #16)", () => {
  let dev: TroupeDev;
  let url: string;

  const call = async <T = ErrorBody>(
    method: string,
    path: string,
    base = url,
    token?: string,
  ): Promise<Answer<T>> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    const text = await response.text();
    return { status: response.status, body: (text === "" ? undefined : JSON.parse(text)) as T };
  };

  beforeAll(async () => {
    dev = await startTroupeDev(["--hosts", "1"]);
    url = (await dev.state()).gatewayUrl!;
  }, 150_000);

  afterAll(async () => {
    await dev?.stop();
  }, 60_000);

  it("lists the session, run and tool call machines as state trees", async () => {
    const { status, body } = await call<{
      machines: Array<{ kind: string; root: { states: Array<{ id: string }> } }>;
    }>("GET", "/v1/console/machines");
    expect(status).toBe(200);
    const kinds = (
      body.machines as Array<{ kind: string; root: { states: Array<{ id: string }> } }>
    ).map((machine) => [machine.kind, machine.root.states.map((state) => state.id)]);
    expect(kinds.map(([kind]) => kind)).toEqual(["session", "run", "tool"]);
    expect(kinds[1]![1]).toEqual(
      expect.arrayContaining(["run.idle", "run.calling", "run.runningTools"]),
    );
    expect(kinds[2]![1]).toEqual(expect.arrayContaining(["tool.awaitingApproval", "tool.done"]));
  });

  it("shows a session's actors with their snapshot state, an actor's generations, and a replay that reproduces it", async () => {
    const sessionId = `console-${Date.now().toString(36)}`;
    const sent = await fetch(`${url}/v1/sessions/${sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "email ada@example.com about the launch on Friday" }),
    });
    expect(sent.status).toBe(202);
    let actors: Array<{
      address: string;
      role: string;
      activeStates: string[];
      generation?: number;
      label?: string;
    }> = [];
    await waitFor(
      async () => {
        const answer = await call<{ actors: SessionActor[] }>(
          "GET",
          `/v1/console/sessions/${sessionId}/actors`,
        );
        actors = answer.status === 200 ? answer.body.actors : [];
        return actors.some((actor) => actor.activeStates.includes("tool.awaitingApproval"));
      },
      { timeoutMs: 30_000, description: "the tool call actor awaiting approval" },
    );
    const byRole = Object.fromEntries(actors.map((actor) => [actor.role, actor]));
    expect(Object.keys(byRole).sort()).toEqual(["run", "session", "tool"]);
    expect(byRole.session!.address).toBe(`session/${sessionId}`);
    expect(byRole.session!.activeStates).toEqual(["session.running"]);
    expect(byRole.run!.address).toBe(`run/${sessionId}`);
    expect(byRole.run!.activeStates).toEqual(["run.runningTools"]);
    expect(byRole.tool!.label).toBe("send_email · call-2-1");

    const [kind, id] = byRole.session!.address.split("/");
    const inspection = await call<{ exists: boolean; generations: Generation[] }>(
      "GET",
      `/v1/console/actors/${kind}/${id}`,
    );
    expect(inspection.status).toBe(200);
    expect(inspection.body.exists).toBe(true);
    const [latest] = inspection.body.generations;
    expect(latest?.latest).toBe(true);
    expect(latest?.stateValue).toBe("running");
    expect(latest?.generation).toBe(byRole.session!.generation);

    const replay = await call<{ messagesReplayed: number }>(
      "POST",
      `/v1/console/actors/${kind}/${id}/replay`,
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({
      actor: `session/${sessionId}`,
      reproduces: true,
      compared: true,
    });
    expect(replay.body.messagesReplayed).toBeGreaterThan(0);
  });

  it("shows the host, every shard's owner, and a dead letter with its reason", async () => {
    const cluster = await call<{
      shardCount: number;
      hosts: Array<{ hostId: string }>;
      shards: Array<{ owner?: string }>;
    }>("GET", "/v1/console/cluster");
    expect(cluster.status).toBe(200);
    expect(cluster.body.hosts).toHaveLength(1);
    const hostId = cluster.body.hosts[0]?.hostId;
    expect(cluster.body.shards).toHaveLength(cluster.body.shardCount);
    expect(cluster.body.shards.every((shard: { owner?: string }) => shard.owner === hostId)).toBe(
      true,
    );

    const nats = await connect({ servers: (await dev.state()).natsUrl });
    try {
      nats.publish("troupe.session.console-dead.in", "this is not json");
      await nats.flush();
    } finally {
      await nats.close();
    }
    let letters: Array<{ actor?: string; code: string; reason: string }> = [];
    await waitFor(
      async () => {
        letters = (
          await call<Array<{ actor?: string; code: string; reason: string }>>(
            "GET",
            "/v1/console/dead-letters?limit=10",
          )
        ).body;
        return letters.some((letter) => letter.actor === "session/console-dead");
      },
      { timeoutMs: 30_000, description: "the dead letter listed" },
    );
    const letter = letters.find((entry) => entry.actor === "session/console-dead")!;
    expect(letter.code).toMatch(/^decode_failed/);
    expect(letter.reason.length).toBeGreaterThan(0);
  });

  it("refuses a bad address (400), a session without events (404), a scoped token (403) and answers 503 without an inspector", async () => {
    const bad = await call("GET", "/v1/console/actors/session/has%20space");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_request");
    const reserved = await call("GET", "/v1/console/sessions/not%20valid/actors");
    expect(reserved.status).toBe(400);
    const missing = await call("GET", "/v1/console/sessions/never-seen-session/actors");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("session_not_found");

    const folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}console-`));
    const tokensFile = join(folder, "tokens.json");
    await writeFile(
      tokensFile,
      JSON.stringify([{ token: "acme-console-token-0123456789", sessionPrefix: "acme-" }]),
    );
    const scoped = await startTroupeGateway(dev.home, ["--tokens-file", tokensFile]);
    try {
      for (const path of [
        "/v1/console/cluster",
        "/v1/console/dead-letters",
        "/v1/console/actors/session/acme-1",
      ]) {
        const answer = await call("GET", path, scoped.url, "acme-console-token-0123456789");
        expect([path, answer.status, answer.body.code]).toEqual([path, 403, "forbidden"]);
      }
      const outside = await call(
        "GET",
        "/v1/console/sessions/other-1/actors",
        scoped.url,
        "acme-console-token-0123456789",
      );
      expect(outside.status).toBe(403);
      const machines = await call(
        "GET",
        "/v1/console/machines",
        scoped.url,
        "acme-console-token-0123456789",
      );
      expect(machines.status).toBe(200);
    } finally {
      await scoped.stop();
      await rm(folder, { recursive: true, force: true });
    }

    const client = await TroupeClient.connect({ natsUrl: (await dev.state()).natsUrl });
    const bare = await serveGateway({ client, port: 0, log: () => undefined });
    try {
      const answer = await call("GET", "/v1/console/cluster", bare.url);
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe("unavailable");
      expect((await call("GET", "/v1/console/machines", bare.url)).status).toBe(200);
    } finally {
      await bare.close();
      await client.close();
    }
  });
});
