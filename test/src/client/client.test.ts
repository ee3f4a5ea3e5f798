import { jetstream, type JetStreamClient } from "@nats-io/jetstream";
import { connect, headers, type NatsConnection } from "@nats-io/transport-node";
import { ensureStreams } from "@troupe/runtime/internal";
import { streamNames } from "@troupe/protocol";
import {
  decodeEvent,
  encodeEvent,
  eventSubject,
  InvalidAddressError,
  type EventType,
} from "@troupe/protocol";
import {
  ClientClosedError,
  InboxMappingMissingError,
  MessageRejectedError,
  NatsUnreachableError,
  RunTimeoutError,
  StreamsMissingError,
  TroupeClient,
  type SessionEvent,
} from "@troupe/client";
import { findFreePort, findServerBinary } from "@troupe/dev";
import { startLocalNatsServer, type LocalNatsServer } from "@troupe/dev";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream, type StoredMessage } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
const TOOLS_HOST = "test/src/fixtures/tools-host.ts";
const HELLO_ANSWER = "Hello! I am the Troupe demo agent. Ask me anything.";

/** Reads a session's events from `fromSequence` until `until` holds for one of them. */
async function collectUntil(
  client: TroupeClient,
  sessionId: string,
  until: (event: SessionEvent) => boolean,
  options: { fromSequence?: number; timeoutMs: number },
): Promise<SessionEvent[]> {
  const collected: SessionEvent[] = [];
  const signal = AbortSignal.timeout(options.timeoutMs);
  for await (const event of client.events(sessionId, {
    fromSequence: options.fromSequence ?? 1,
    signal,
  })) {
    collected.push(event);
    if (until(event)) return collected;
  }
  throw new Error(`no matching event of ${sessionId} within ${options.timeoutMs} ms`);
}

const payloadOf = (event: SessionEvent) => event.event.payload as Record<string, unknown>;

describe("TroupeClient against the demo agent", () => {
  let cluster: Cluster;
  let client: TroupeClient;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    await cluster.startOnlyHost(AGENT_HOST);
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl });
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  it("send, then waitForRun by client message id, returns the scripted answer", async () => {
    const receipt = await client.send("cl-hello", { text: "hello", clientMessageId: "hello-1" });
    expect(receipt).toMatchObject({
      sessionId: "cl-hello",
      clientMessageId: "hello-1",
      messageId: "cm:hello-1",
      duplicate: false,
    });
    expect(receipt.streamSequence).toBeGreaterThan(0);
    const outcome = await client.waitForRun(
      "cl-hello",
      { clientMessageId: "hello-1" },
      { timeoutMs: 20_000 },
    );
    expect(outcome).toMatchObject({ status: "completed", runId: "r1", text: HELLO_ANSWER });
    if (outcome.status !== "completed") throw new Error("unreachable");
    expect(outcome.usage.outputTokens).toBeGreaterThan(0);
    // The same run is found again later, by client message id or by run id.
    const again = await client.waitForRun("cl-hello", { runId: "r1" }, { timeoutMs: 10_000 });
    expect(again).toEqual(outcome);
  });

  it("sendAndWait streams deltas to onEvent and returns the text they add up to", async () => {
    const seen: SessionEvent[] = [];
    const outcome = await client.sendAndWait("cl-think", "/think one two three", {
      timeoutMs: 20_000,
      onEvent: (event) => seen.push(event),
    });
    expect(outcome).toMatchObject({ status: "completed", text: "You said: one two three" });
    const streamed = seen
      .filter((event) => event.event.type === "run.delta" && payloadOf(event)["kind"] === "text")
      .map((event) => String(payloadOf(event)["text"]))
      .join("");
    expect(streamed).toBe("You said: one two three");
    expect(seen.at(-1)?.sequence).toBe(outcome.sequence);
  });

  it("events from sequence 1 replay the session's whole stored history, in stream order, then follow", async () => {
    await client.sendAndWait("cl-replay", "hello", { timeoutMs: 20_000 });
    // run.completed (the run actor) can be stored before session.idle (the
    // session actor, one message later): read once the session is idle.
    let stored: StoredMessage[] = [];
    await waitFor(
      async () => {
        stored = await readStream(
          cluster.js,
          cluster.streams.events,
          "troupe.session.cl-replay.events.>",
        );
        return stored.at(-1)?.subject === "troupe.session.cl-replay.events.session.idle";
      },
      { timeoutMs: 10_000, description: "cl-replay's session.idle stored" },
    );
    expect(await client.storedEventCount("cl-replay")).toBe(stored.length);
    expect(await client.storedEventCount("cl-never-used")).toBe(0);
    const replayed = await collectUntil(
      client,
      "cl-replay",
      (event) => event.sequence === stored.at(-1)!.seq,
      { timeoutMs: 10_000 },
    );
    // Deltas come from the deltas stream, placed after the durable event before them (issue #11).
    const durable = replayed.filter((event) => event.deltaSequence === undefined);
    expect(durable.map((event) => event.sequence)).toEqual(stored.map((message) => message.seq));
    expect(replayed.filter((event) => event.event.type === "run.delta").length).toBeGreaterThan(0);
    expect(durable.map((event) => event.event.id)).toEqual(
      stored.map((message) => decodeEvent(message.data, { contentType: message.contentType }).id),
    );
    expect(
      replayed.map((event) => event.event.type).filter((type) => type !== "run.delta"),
    ).toEqual([
      "session.created",
      "message.accepted",
      "run.started",
      "run.completed",
      "session.idle",
    ]);
    // Then it follows: a second message's events arrive on the same iteration.
    const followed: SessionEvent[] = [];
    const controller = new AbortController();
    const following = (async () => {
      for await (const event of client.events("cl-replay", {
        fromSequence: stored.at(-1)!.seq + 1,
        signal: controller.signal,
      })) {
        followed.push(event);
      }
    })();
    await client.send("cl-replay", "hello");
    await waitFor(() => followed.some((event) => event.event.type === "session.idle"), {
      timeoutMs: 20_000,
      description: "the second run's session.idle",
    });
    controller.abort();
    await following; // ends cleanly on abort
    expect(followed[0]!.sequence).toBeGreaterThan(stored.at(-1)!.seq);
  });

  it("the same client message id sent twice yields one run; both waits get its outcome", async () => {
    const first = await client.send("cl-dup", { text: "hello", clientMessageId: "dup-1" });
    const second = await client.send("cl-dup", { text: "hello", clientMessageId: "dup-1" });
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true); // JetStream's dedup window caught it
    expect(second.streamSequence).toBe(first.streamSequence);
    const outcome = await client.waitForRun(
      "cl-dup",
      { clientMessageId: "dup-1" },
      { timeoutMs: 20_000 },
    );
    expect(outcome).toMatchObject({ status: "completed", runId: "r1" });

    // A copy that gets past JetStream (another Nats-Msg-Id) is caught by the session
    // (message.duplicate); sendAndWait-style waiting from after it still finds run r1.
    const after = (await client.lastSequence()) + 1;
    await cluster.send("session/cl-dup", "user.message", {
      text: "hello",
      clientMessageId: "dup-1",
    });
    const fromDuplicate = await client.waitForRun(
      "cl-dup",
      { clientMessageId: "dup-1" },
      { fromSequence: after, timeoutMs: 20_000 },
    );
    expect(fromDuplicate).toEqual(outcome);
    const stored = (
      await readStream(cluster.js, cluster.streams.events, "troupe.session.cl-dup.events.>")
    ).map((message) => decodeEvent(message.data, { contentType: message.contentType }).type);
    expect(stored.filter((type) => type === "run.started")).toHaveLength(1);
    expect(stored.filter((type) => type === "message.duplicate")).toHaveLength(1);
  });

  it("a message queued behind a running one is followed to its own run", async () => {
    await client.send("cl-queue", "/slow 20");
    const outcome = await client.sendAndWait("cl-queue", "hello", { timeoutMs: 30_000 });
    expect(outcome).toMatchObject({ status: "completed", runId: "r2", text: HELLO_ANSWER });
  });

  it("cancel cancels a /slow run; its outcome is cancelled with the partial text", async () => {
    const receipt = await client.send("cl-cancel", "/slow 200");
    await collectUntil(client, "cl-cancel", (event) => event.event.type === "run.delta", {
      timeoutMs: 20_000,
    });
    await client.cancel("cl-cancel", { reason: "changed my mind" });
    const outcome = await client.waitForRun(
      "cl-cancel",
      { clientMessageId: receipt.clientMessageId },
      { timeoutMs: 20_000 },
    );
    expect(outcome).toMatchObject({ status: "cancelled", runId: "r1", reason: "changed my mind" });
  });

  it("sendAndWait fails with MessageRejectedError when the session refuses the message", async () => {
    await cluster.send("session/cl-reject", "session.configure", { policy: "reject" });
    await client.send("cl-reject", "/slow 200");
    await collectUntil(client, "cl-reject", (event) => event.event.type === "run.started", {
      timeoutMs: 20_000,
    });
    const error = await client
      .sendAndWait("cl-reject", "hello", { timeoutMs: 20_000 })
      .catch((caught: unknown) => caught);
    expect(MessageRejectedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ rejectionCode: "run_active", sessionId: "cl-reject" });
    await client.cancel("cl-reject");
  });

  it("waitForRun times out with RunTimeoutError, and an abort rejects with the signal's reason", async () => {
    await client.send("cl-wait", { text: "/slow 500", clientMessageId: "slow-1" });
    const timeout = await client
      .waitForRun("cl-wait", { clientMessageId: "slow-1" }, { timeoutMs: 300 })
      .catch((caught: unknown) => caught);
    expect(RunTimeoutError.isInstance(timeout)).toBe(true);
    const controller = new AbortController();
    const reason = new Error("stop waiting");
    const waiting = client.waitForRun("cl-wait", { runId: "r1" }, { signal: controller.signal });
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await client.cancel("cl-wait");
  });

  it("closing the client ends events() iterations and rejects waits with ClientClosedError", async () => {
    const second = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl });
    const receipt = await second.send("cl-close", "/slow 200");
    const iterated: SessionEvent[] = [];
    const iterating = (async () => {
      for await (const event of second.events("cl-close", { fromSequence: 1 }))
        iterated.push(event);
    })();
    const waiting = second
      .waitForRun("cl-close", { clientMessageId: receipt.clientMessageId })
      .catch((caught: unknown) => caught);
    await waitFor(() => iterated.some((event) => event.event.type === "run.started"), {
      timeoutMs: 20_000,
      description: "run.started",
    });
    await second.close();
    await iterating; // ends without an error
    expect(ClientClosedError.isInstance(await waiting)).toBe(true);
    await expect(second.send("cl-close", "hello")).rejects.toSatisfy((error) =>
      ClientClosedError.isInstance(error),
    );
    await client.cancel("cl-close");
  });

  it("an invalid session id throws InvalidAddressError before anything is published", async () => {
    // Everything published on the server (inbox mapping applied), seen by a wildcard subscriber.
    const subjects: string[] = [];
    const subscription = cluster.nats.subscribe(">", {
      callback: (_error, message) => {
        subjects.push(message.subject);
      },
    });
    await cluster.nats.flush();
    await expect(client.send("bad id", "hello")).rejects.toThrow(InvalidAddressError);
    await expect(client.sendAndWait("a.b", "hello")).rejects.toThrow(InvalidAddressError);
    await expect(client.approve("x>", "call-1")).rejects.toThrow(InvalidAddressError);
    await expect(client.cancel("")).rejects.toThrow(InvalidAddressError);
    await expect(client.send("ok", { text: "hi", clientMessageId: "not valid" })).rejects.toThrow(
      InvalidAddressError,
    );
    expect(() => client.events("*")).toThrow(InvalidAddressError);
    await expect(client.waitForRun("a b", { runId: "r1" })).rejects.toThrow(InvalidAddressError);
    // A valid send afterwards is seen, so the subscriber would have seen the others.
    await client.send("probe-1", "hello");
    await waitFor(() => subjects.some((subject) => subject.endsWith(".session.probe-1")), {
      timeoutMs: 10_000,
      description: "the probe message on its inbox subject",
    });
    subscription.unsubscribe();
    const tokens = subjects.flatMap((subject) => subject.split("."));
    for (const token of ["bad id", "a", "b", "x>", "ok", "a b", ""]) {
      expect(tokens).not.toContain(token);
    }
  });
});

describe("TroupeClient approvals and questions", () => {
  let cluster: Cluster;
  let client: TroupeClient;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    await cluster.startOnlyHost(TOOLS_HOST);
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl });
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  async function approvalRequested(sessionId: string): Promise<string> {
    const events = await collectUntil(
      client,
      sessionId,
      (event) => event.event.type === "tool.approval_requested",
      { timeoutMs: 20_000 },
    );
    return String(payloadOf(events.at(-1)!)["toolCallId"]);
  }

  it("approve runs the charge the gatekeeper asked approval for", async () => {
    const receipt = await client.send("cl-approve", {
      text: '/tool charge {"key":"ca1"}',
      agent: "gatekeeper",
    });
    await client.approve("cl-approve", await approvalRequested("cl-approve"), { note: "ok" });
    const outcome = await client.waitForRun(
      "cl-approve",
      { clientMessageId: receipt.clientMessageId },
      { timeoutMs: 20_000 },
    );
    expect(outcome.status).toBe("completed");
    expect(outcome.status === "completed" && outcome.text).toContain("charge=");
  });

  it("deny leaves the charge unrun and the model is told the reason", async () => {
    const receipt = await client.send("cl-deny", {
      text: '/tool charge {"key":"cd1"}',
      agent: "gatekeeper",
    });
    await client.deny("cl-deny", await approvalRequested("cl-deny"), { reason: "not today" });
    const outcome = await client.waitForRun(
      "cl-deny",
      { clientMessageId: receipt.clientMessageId },
      { timeoutMs: 20_000 },
    );
    if (outcome.status !== "completed") throw new Error(`unexpected ${outcome.status}`);
    expect(outcome.text).toContain("Denied by the user");
    expect(outcome.text).toContain("not today");
  });

  it("approve through the parent session settles a subagent's call (subagentSessionId)", async () => {
    const task = '/tool charge {"key":"cs1"}';
    const receipt = await client.send("cl-sub", {
      text: `/tool cashier ${JSON.stringify({ task })}`,
      agent: "delegator",
    });
    const events = await collectUntil(
      client,
      "cl-sub",
      (event) => event.event.type === "tool.approval_requested",
      { timeoutMs: 20_000 },
    );
    const request = payloadOf(events.at(-1)!);
    const subagentSessionId = String(request["sessionId"]);
    expect(subagentSessionId).toMatch(/^sub-/);
    expect(await cluster.redis.hget("test:tool-executions", "charge:cs1")).toBeNull();
    await client.approve("cl-sub", String(request["toolCallId"]), { subagentSessionId });
    const outcome = await client.waitForRun(
      "cl-sub",
      { clientMessageId: receipt.clientMessageId },
      { timeoutMs: 20_000 },
    );
    expect(outcome.status).toBe("completed");
    expect(await cluster.redis.hget("test:tool-executions", "charge:cs1")).toBe("1");
  });

  it("answer resumes a run waiting on ask_user", async () => {
    const receipt = await client.send("cl-ask", '/tool ask_user {"question":"Which city?"}');
    const asked = await collectUntil(
      client,
      "cl-ask",
      (event) => event.event.type === "question.asked",
      { timeoutMs: 20_000 },
    );
    await client.answer("cl-ask", String(payloadOf(asked.at(-1)!)["questionId"]), "Lisbon");
    const outcome = await client.waitForRun(
      "cl-ask",
      { clientMessageId: receipt.clientMessageId },
      { timeoutMs: 20_000 },
    );
    expect(outcome.status === "completed" && outcome.text).toContain("Lisbon");
  });
});

describe("TroupeClient connection failures and a NATS server restart", () => {
  let server: LocalNatsServer | undefined;
  let storeDir: string;
  let port: number;
  const prefix = "restart";
  const streams = streamNames(prefix);

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), testDataDirPrefix("nats")));
    port = await findFreePort("127.0.0.1");
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
    await rm(storeDir, { recursive: true, force: true });
  });

  function startServer(): Promise<LocalNatsServer> {
    return startLocalNatsServer({
      port,
      storeDir,
      shardCount: 8,
      dataDirPrefix: testDataDirPrefix("nats"),
    });
  }

  it("an unreachable URL gives NatsUnreachableError naming the URL", async () => {
    const url = `nats://127.0.0.1:${await findFreePort("127.0.0.1")}`;
    const error = await TroupeClient.connect({ natsUrl: url, connectTimeoutMs: 2_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(NatsUnreachableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(url);
    expect((error as Error).message).toContain("npx troupe dev");
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it("before any host created the streams, calls fail with StreamsMissingError", async () => {
    await using client = await TroupeClient.connect({ natsUrl: server!.url, prefix });
    const missing = await client.lastSequence().catch((caught: unknown) => caught);
    expect(StreamsMissingError.isInstance(missing)).toBe(true);
    expect(missing).toMatchObject({ stream: streams.events });
    expect((missing as Error).message).toContain("no Troupe host has created the streams");
    const sending = await client.send("s1", "hello").catch((caught: unknown) => caught);
    expect(StreamsMissingError.isInstance(sending)).toBe(true);
    const iterating = await (async () => {
      for await (const _ of client.events("s1", { fromSequence: 1 })) break;
    })().catch((caught: unknown) => caught);
    expect(StreamsMissingError.isInstance(iterating)).toBe(true);
  });

  it("a server with the streams but without the inbox subject mapping gives InboxMappingMissingError", async () => {
    // A bare `nats-server -js` (no infra/nats-server.conf): streams can be made,
    // but nothing routes troupe.session.<id>.in into the inbox stream.
    const store = await mkdtemp(join(tmpdir(), testDataDirPrefix("nats")));
    const port = await findFreePort("127.0.0.1");
    const bare = spawn(
      findServerBinary("nats-server")!,
      ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", store],
      { stdio: "ignore" },
    );
    try {
      const url = `nats://127.0.0.1:${port}`;
      await waitFor(() => connect({ servers: url }).then((nc) => nc.close().then(() => true)), {
        timeoutMs: 10_000,
        description: "the bare nats-server",
      });
      const admin = await connect({ servers: url });
      const { jetstreamManager } = await import("@nats-io/jetstream");
      await ensureStreams(await jetstreamManager(admin), streams, {
        journalRetentionMs: 3_600_000,
        eventRetentionMs: 3_600_000,
        transcriptRetentionMs: 0,
        duplicateWindowMs: 120_000,
      });
      await admin.close();
      await using client = await TroupeClient.connect({ natsUrl: url, prefix });
      const error = await client.send("s1", "hello").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InboxMappingMissingError);
      expect((error as Error).message).toContain("lacks Troupe's inbox subject mapping");
      expect((error as InboxMappingMissingError).subject).toBe("troupe.session.s1.in");
    } finally {
      bare.kill("SIGKILL");
      await new Promise((resolve) => bare.once("exit", resolve));
      await rm(store, { recursive: true, force: true });
    }
  });

  it("events() follows across a server restart with no gap and no duplicate, dropping a re-published event", async () => {
    const retention = {
      journalRetentionMs: 3_600_000,
      eventRetentionMs: 3_600_000,
      transcriptRetentionMs: 0,
      duplicateWindowMs: 120_000,
    };
    let publisher: NatsConnection = await connect({ servers: server!.url });
    const { jetstreamManager } = await import("@nats-io/jetstream");
    await ensureStreams(await jetstreamManager(publisher), streams, retention);
    const publish = async (js: JetStreamClient, n: number, withMsgId = true) => {
      const id = `session/rs1:ev:${n}`;
      const type: EventType = "session.idle";
      const { bytes, contentType } = encodeEvent({
        v: 1,
        id,
        type,
        payload: { sessionId: "rs1", lastRunId: `r${n}` },
        meta: { actor: "session/rs1", seq: n, timestampMs: Date.now() },
      });
      const eventHeaders = headers();
      eventHeaders.set("Content-Type", contentType);
      await js.publish(eventSubject({ kind: "session", id: "rs1" }, type), bytes, {
        headers: eventHeaders,
        ...(withMsgId ? { msgID: id } : {}),
      });
    };
    let js = jetstream(publisher);
    for (let n = 1; n <= 5; n++) await publish(js, n);

    const client = await TroupeClient.connect({ natsUrl: server!.url, prefix });
    const received: SessionEvent[] = [];
    const controller = new AbortController();
    const following = (async () => {
      for await (const event of client.events("rs1", {
        fromSequence: 1,
        signal: controller.signal,
      })) {
        received.push(event);
      }
    })();
    try {
      await waitFor(() => received.length === 5, { timeoutMs: 10_000, description: "5 events" });
      await publisher.close();
      await server!.stop();
      server = await startServer();
      publisher = await connect({ servers: server.url });
      js = jetstream(publisher);
      await publish(js, 6);
      await publish(js, 7);
      await publish(js, 3, false); // a host re-publishing event 3 after its dedup window
      for (let n = 8; n <= 10; n++) await publish(js, n);
      await waitFor(() => received.some((event) => event.event.id === "session/rs1:ev:10"), {
        timeoutMs: 30_000,
        description: "event 10 after the restart",
      });
      const ids = received.map((event) => event.event.id);
      expect(ids).toEqual(Array.from({ length: 10 }, (_, index) => `session/rs1:ev:${index + 1}`));
      const sequences = received.map((event) => event.sequence);
      // Stream sequences 1..11: the re-published copy of event 3 is the only one not yielded.
      expect(sequences).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 11]);
      expect(await client.lastSequence()).toBe(11);
    } finally {
      controller.abort();
      await following;
      await client.close();
      await publisher.close();
    }
  });
});
