import { inspectActor } from "@troupe/admin";
import { TroupeClient } from "@troupe/client";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { Redis } from "ioredis";
import { RedisKeys } from "@troupe/protocol/internal";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTroupe, startTroupeDev, type TroupeDev, startPtyChat } from "../support/troupe-cli.js";
import { testRunMarker } from "../harness/test-run-marker.js";
import { waitFor } from "../support/wait-for.js";

// The README walk-through, end to end: `troupe dev` starts real servers and
// two host processes; every other command finds it through TROUPE_HOME.
describe("the troupe CLI against a troupe dev cluster", () => {
  let dev: TroupeDev;
  let redis: Redis;

  beforeAll(async () => {
    dev = await startTroupeDev(["--hosts", "2"]);
    redis = new Redis((await dev.state()).redisUrl);
  }, 120_000);

  afterAll(async () => {
    redis?.disconnect();
    // Ctrl-C drains both hosts (up to their 10 s drain timeout each) and stops
    // the gateway and the servers; on a loaded CI machine that has taken over
    // 30 s, so the SIGKILL fallback waits 60 s. The output says what was slow.
    const code = await dev?.stop(60_000);
    expect(code, dev?.output().split("\n").slice(-30).join("\n")).toBe(0);
  }, 90_000);

  const troupe = (args: string[], timeoutMs = 60_000) =>
    runTroupe(args, { home: dev.home, timeoutMs });

  it("send --wait prints the scripted answer after a tool call and exits 0", async () => {
    const result = await troupe(["send", "demo-1", "what time is it in Tokyo?", "--wait"]);
    expect(result.stderr).toContain("⚙ clock");
    expect(result.stderr).toMatch(/✓ clock → .*"timeZone":"Asia\/Tokyo"/);
    expect(result.stdout).toMatch(/^It is \d{2}:\d{2} in Asia\/Tokyo\.\n$/);
    expect(result.code).toBe(0);
  }, 60_000);

  it("tail --from 1 --until-idle prints a finished session's whole history in order and exits", async () => {
    const second = await troupe(["send", "demo-1", "remember to water the plants", "--wait"]);
    expect(second.code).toBe(0);
    const tail = await troupe(["tail", "demo-1", "--from", "1", "--until-idle"]);
    expect(tail.code).toBe(0);
    const marks = [
      "· session demo-1 created",
      "▶ run r1",
      "⚙ clock",
      "It is ",
      "· idle",
      "▶ run r2",
      "⚙ save_note",
      'Saved your note "to water the plants"',
      "· idle",
    ];
    let position = -1;
    for (const mark of marks) {
      const next = tail.stdout.indexOf(mark, position + 1);
      expect(next, `"${mark}" after position ${position} in:\n${tail.stdout}`).toBeGreaterThan(
        position,
      );
      position = next;
    }
    // --json gives the same history as stream sequences, strictly increasing.
    const json = await troupe(["tail", "demo-1", "--from", "1", "--until-idle", "--json"]);
    const jsonLines = json.stdout.trim().split("\n");
    // The last line says why it stopped (issue #13).
    expect(JSON.parse(jsonLines.pop()!)).toEqual({ stop: "idle" });
    const events = jsonLines.map(
      (line) => JSON.parse(line) as { sequence: number; event: { type: string } },
    );
    const sequences = events.map((event) => event.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    // A delta carries the sequence of the durable event before it (issue #11).
    const durable = (events as { sequence: number; deltaSequence?: number }[])
      .filter((event) => event.deltaSequence === undefined)
      .map((event) => event.sequence);
    expect(new Set(durable).size).toBe(durable.length);
    expect(events.filter((event) => event.event.type === "run.completed")).toHaveLength(2);
    expect(events.at(-1)?.event.type).toBe("session.idle");
  }, 60_000);

  it("chat in a pseudo-terminal completes a conversation with an approval", async () => {
    const demoOutbox = new RedisKeys("troupe").demoOutbox();
    await redis.del(demoOutbox);
    const chat = startPtyChat("chat-pty-1", dev.home);
    const { plain, count } = chat;
    try {
      await waitFor(() => count("you ›") >= 1, { timeoutMs: 30_000, description: "prompt" });
      chat.type("email bob@example.com the pty test works\n");
      await waitFor(() => plain().includes("approve send_email? [y/N]"), {
        timeoutMs: 30_000,
        description: "approval prompt",
      });
      expect(await redis.llen(demoOutbox)).toBe(0);
      chat.type("y\n");
      await waitFor(() => plain().includes("Sent the email to bob@example.com."), {
        timeoutMs: 30_000,
        description: "answer after the approval",
      });
      await waitFor(() => count("you ›") >= 2, { timeoutMs: 10_000, description: "next prompt" });
      chat.type("/exit\n");
      expect(await chat.exited).toBe(0);
    } finally {
      chat.kill();
    }
    const outbox = (await redis.lrange(demoOutbox, 0, -1)).map(
      (entry) => JSON.parse(entry) as { to: string },
    );
    expect(outbox.map((entry) => entry.to)).toEqual(["bob@example.com"]);
    expect(plain()).toContain("bye. Continue with: npx troupe chat chat-pty-1");
  }, 90_000);

  it("refuses a bad session id with the rule it breaks, and names the agents served for an unknown one", async () => {
    const bad = await troupe(["send", "bad id!", "hello"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Invalid actor id "bad id!"');
    const unknown = await troupe(["send", "demo-x", "hello", "--agent", "nope", "--wait"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown agent "nope". This host serves: demo.');
    // A message the host could not decode (an agent name must not be empty) is
    // refused by the client before it is published, with the session's own
    // schema error (issue #11).
    const undecodable = await troupe(["send", "demo-y", "hello", "--agent", "", "--wait"], 30_000);
    expect(undecodable.stderr).toContain("The user.message payload is invalid: payload.agent: ");
    expect(undecodable.code).toBe(1);
  }, 60_000);

  it("approve, steer and the rest report the session's verdict: a refusal or a command that did nothing exits 1 (issue #11)", async () => {
    const steer = await troupe(["steer", "idle-1", "be brief", "--json"]);
    expect(JSON.parse(steer.stdout)).toMatchObject({
      ok: false,
      verdict: "rejected",
      code: "no_active_run",
      sessionId: "idle-1",
    });
    expect(steer.code).toBe(1);
    // The rejected steer is the session's only event: --until-idle stops there.
    const tail = await troupe(["tail", "idle-1", "--from", "1", "--until-idle"], 20_000);
    expect(tail.stdout).toContain("✗ run.steer rejected (no_active_run)");
    expect(tail.code).toBe(0);
    // A session that never ran refuses an approval; one that ran names the
    // unknown call id (its tool call actor answers without being created).
    const noRun = await troupe(["approve", "idle-1", "call-bogus"]);
    expect(noRun.stderr).toContain("idle-1 refused it (no_run)");
    expect(noRun.code).toBe(1);
    const unknownCall = await troupe(["approve", "demo-1", "call-bogus"]);
    expect(unknownCall.stderr).toContain("unknown id: no tool call call-bogus in this session");
    expect(unknownCall.code).toBe(1);
    // An accepted command is the session's last event: --until-idle still stops.
    const after = await troupe(["tail", "demo-1", "--until-idle"], 20_000);
    expect(after.code).toBe(0);
    // Cancel on an idle session: answered at once with its own verdict (no
    // wait for a run.cancelled that never comes), and it did nothing: exit 1.
    const cancel = await troupe(["cancel", "idle-1"]);
    expect(cancel.stderr).toContain("nothing to act on: session idle-1 has no active run");
    expect(cancel.stderr).not.toContain("no verdict");
    expect(cancel.code).toBe(1);
    const cancelJson = await troupe(["cancel", "demo-1", "--json"]);
    expect(JSON.parse(cancelJson.stdout)).toMatchObject({
      ok: false,
      verdict: "nothing_to_act_on",
      reason: "session demo-1 has no active run",
      event: { type: "command.settled", payload: { command: "run.cancel" } },
    });
    // None of these commands created the session they addressed.
    const keys = new RedisKeys("troupe");
    expect(await redis.exists(keys.actor("session/idle-1"), keys.history("session/idle-1"))).toBe(
      0,
    );
  }, 120_000);

  it("approve settles a waiting call and says so; a second approve says it already was", async () => {
    const state = await dev.state();
    const client = await TroupeClient.connect({ natsUrl: state.natsUrl });
    try {
      const from = (await client.lastSequence()) + 1;
      const sent = await troupe(["send", "appr-1", "email carol@example.com the CLI approves"]);
      expect(sent.code).toBe(0);
      let toolCallId = "";
      for await (const { event } of client.events("appr-1", { fromSequence: from })) {
        if (event.type === "tool.approval_requested") {
          toolCallId = String((event.payload as { toolCallId: unknown }).toolCallId);
          break;
        }
      }
      const first = await troupe(["approve", "appr-1", toolCallId]);
      expect(first.stdout).toBe(`✔ ${toolCallId} approved\n`);
      expect(first.code).toBe(0);
      const again = await troupe(["approve", "appr-1", toolCallId, "--json"]);
      expect(JSON.parse(again.stdout)).toMatchObject({
        ok: false,
        verdict: "already_settled",
        reason: `tool call ${toolCallId} was approved already`,
        event: { payload: { toolCallId, decision: "approved", command: "tool.approve" } },
      });
      expect(again.code).toBe(1);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("approve and deny racing on one call: each reports its own verdict, the loser 'already settled' with exit 1 (issue #11)", async () => {
    const state = await dev.state();
    const client = await TroupeClient.connect({ natsUrl: state.natsUrl });
    try {
      for (const sessionId of ["race-1", "race-2"]) {
        const from = (await client.lastSequence()) + 1;
        const sent = await troupe(["send", sessionId, "email dave@example.com the race is on"]);
        expect(sent.code).toBe(0);
        let toolCallId = "";
        let decision = "";
        const approveAndDeny = (async () => {
          for await (const { event } of client.events(sessionId, { fromSequence: from })) {
            const payload = event.payload as Record<string, unknown>;
            if (event.type === "tool.approval_requested") {
              toolCallId = String(payload["toolCallId"]);
              break;
            }
          }
          return Promise.all([
            troupe(["approve", sessionId, toolCallId]),
            troupe(["deny", sessionId, toolCallId, "--reason", "lost race?"]),
          ]);
        })();
        const [approve, deny] = await approveAndDeny;
        for await (const { event } of client.events(sessionId, { fromSequence: from })) {
          const payload = event.payload as Record<string, unknown>;
          if (event.type === "tool.approval_settled" && payload["alreadySettled"] !== true) {
            decision = String(payload["decision"]);
            break;
          }
        }
        const [winner, loser] = decision === "approved" ? [approve, deny] : [deny, approve];
        expect(winner.stdout).toBe(`✔ ${toolCallId} ${decision}\n`);
        expect(winner.code).toBe(0);
        expect(loser.stdout).toBe("");
        expect(loser.stderr).toContain(
          `already settled: tool call ${toolCallId} was ${decision} already`,
        );
        expect(loser.code).toBe(1);
      }
    } finally {
      await client.close();
    }
  }, 90_000);

  it("a host given a module without agents exits at once with the reason", async () => {
    const folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}agent-`));
    try {
      const module = join(folder, "no-agents.mjs");
      await writeFile(module, "export const x = 1;\n");
      const host = await troupe(["host", "--agent", module], 30_000);
      expect(host.stderr).toContain(
        `Agent module ${module}: exports neither "default" nor "agents" (found: x)`,
      );
      expect(host.code).toBe(1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it("names the URL and how to start a server when NATS or Redis does not answer", async () => {
    const nats = await troupe(["send", "demo-1", "hi", "--nats", "nats://127.0.0.1:1"]);
    expect(nats.code).toBe(1);
    expect(nats.stderr).toContain("Cannot reach NATS at nats://127.0.0.1:1");
    expect(nats.stderr).toContain("npx troupe dev");
    const redisDown = await troupe(["status", "--redis", "redis://127.0.0.1:1"]);
    expect(redisDown.code).toBe(1);
    expect(redisDown.stderr).toContain("Cannot reach Redis at redis://127.0.0.1:1");
  }, 60_000);

  it("status, inspect and replay read the running deployment", async () => {
    const status = await troupe(["status", "--json"]);
    const report = JSON.parse(status.stdout) as {
      totals: { liveHosts: number; ownedShards: number };
    };
    expect(report.totals).toMatchObject({ liveHosts: 2, ownedShards: 64 });
    const inspect = await troupe(["inspect", "session/demo-1", "--json"]);
    const inspection = JSON.parse(inspect.stdout) as {
      exists: boolean;
      generations: { stateValue: unknown }[];
    };
    expect(inspection.exists).toBe(true);
    expect(inspection.generations[0]?.stateValue).toBe("idle");
    // An actor never created: exit 1, and a line that says why.
    const missing = await troupe(["inspect", "session/never-made"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("session/never-made has no stored snapshot");
    const replay = await troupe(["replay", "session/demo-1"]);
    expect(replay.stdout).toContain("yes, the journal reproduces the stored snapshot");
    expect(replay.code).toBe(0);
  }, 60_000);

  it("the banner and status show each host's metrics URL, which serves its Prometheus metrics (issue #18)", async () => {
    const state = await dev.state();
    expect(state.hosts).toHaveLength(2);
    let shardsOwned = 0;
    for (const [index, host] of state.hosts.entries()) {
      expect(host.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(dev.output()).toContain(
        `host ${index + 1} ${host.hostId}  pid ${host.pid}  metrics ${host.metricsUrl}`,
      );
      const response = await fetch(host.metricsUrl!, { signal: AbortSignal.timeout(5_000) });
      expect(response.status).toBe(200);
      const owned = new RegExp(
        `^troupe_shards_owned\\{[^}]*troupe_host_id="${host.hostId}"[^}]*\\} (\\d+)$`,
        "m",
      ).exec(await response.text());
      expect(owned).not.toBeNull();
      shardsOwned += Number(owned![1]);
    }
    expect(shardsOwned).toBe(64);
    const report = JSON.parse((await troupe(["status", "--json"])).stdout) as {
      hosts: { hostId: string; metricsUrl?: string }[];
    };
    expect(Object.fromEntries(report.hosts.map((host) => [host.hostId, host.metricsUrl]))).toEqual(
      Object.fromEntries(state.hosts.map((host) => [host.hostId, host.metricsUrl])),
    );
    const text = (await troupe(["status"])).stdout;
    for (const host of state.hosts)
      expect(text).toMatch(new RegExp(`${host.hostId} .*${host.metricsUrl!}`));
  }, 60_000);

  it("send --priority batch runs the message as batch (run.started names the class); an unknown class is refused", async () => {
    const sent = await troupe(["send", "prio-1", "hello", "--priority", "batch", "--wait"]);
    expect(sent.code).toBe(0);
    const json = await troupe(["tail", "prio-1", "--from", "1", "--until-idle", "--json"]);
    const started = json.stdout
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { event?: { type: string; payload: { priority?: string } } },
      )
      .find((line) => line.event?.type === "run.started");
    expect(started?.event?.payload.priority).toBe("batch");
    const refused = await troupe(["send", "prio-1", "hello", "--priority", "urgent"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Allowed choices are interactive, default, batch");
  }, 60_000);

  it("history export writes a session's history, history replay replays it offline, and bad input is refused (issue #14)", async () => {
    const sent = await troupe(["send", "history-1", "what time is it in Paris?", "--wait"]);
    expect(sent.code).toBe(0);
    const folder = await mkdtemp(join(tmpdir(), "troupe-history-"));
    // Apart from the histories: `history replay <folder>` reads every JSON file there.
    const cassetteFile = join(`${folder}-cassettes`, "history-1.json");
    try {
      const file = join(folder, "history-1.ndjson");
      const exported = await troupe([
        "history",
        "export",
        "session/history-1",
        "--tree",
        "--format",
        "ndjson",
        "-o",
        file,
        "--cassette",
        cassetteFile,
      ]);
      expect(exported.stderr).toMatch(/wrote 3 actors \(session\/history-1: \d+ messages/);
      // The demo's time tool: the call that asks for it, the answer after its result.
      expect(exported.stderr).toContain(
        `wrote a model cassette of 2 model requests to ${cassetteFile}`,
      );
      expect(exported.code).toBe(0);
      const cassette = JSON.parse(await readFile(cassetteFile, "utf8")) as {
        entries: {
          request: { prompt: { role: string }[] };
          stream: { part: { type: string; delta?: string } }[];
        }[];
      };
      const streamedText = (entry: (typeof cassette.entries)[number]) =>
        entry.stream
          .filter(({ part }) => part.type === "text-delta")
          .map(({ part }) => part.delta)
          .join("");
      // The recorded answer is the one `send --wait` printed; its request ends with the tool result.
      expect(sent.stdout).toContain(streamedText(cassette.entries[1]!));
      expect(streamedText(cassette.entries[1]!)).toMatch(/Paris/);
      expect(cassette.entries[1]!.request.prompt.map((message) => message.role)).toEqual([
        "system",
        "user",
        "assistant",
        "tool",
      ]);
      const replayed = await troupe(["history", "replay", folder]);
      expect(replayed.stdout).toContain("✓ history-1.ndjson");
      expect(replayed.stdout).toContain("1 history file(s) under");
      expect(replayed.code).toBe(0);

      const stdout = await troupe(["history", "export", "run/history-1"]);
      expect(JSON.parse(stdout.stdout)).toMatchObject({ root: "run/history-1", tree: false });
      expect(stdout.code).toBe(0);
      const missing = await troupe(["history", "export", "session/nobody-here"]);
      expect(missing.stderr).toContain("actor session/nobody-here has no stored snapshot");
      expect(missing.code).toBe(1);
      const invalid = await troupe(["history", "export", "history-1"]);
      expect(invalid.stderr).toContain('Invalid actor address "history-1"');
      expect(invalid.code).toBe(1);

      await writeFile(join(folder, "broken.json"), '{"format":"something else"}');
      const broken = await troupe(["history", "replay", folder]);
      expect(broken.stdout).toContain("✗ broken.json: not a history");
      expect(broken.code).toBe(1);
    } finally {
      await rm(folder, { recursive: true, force: true });
      await rm(`${folder}-cassettes`, { recursive: true, force: true });
    }
  }, 90_000);

  it("a publish to troupe.session.a.b.in (a session id with a dot) is dead-lettered as unroutable_subject and shown by status and dead-letters", async () => {
    const nats = await connect({ servers: (await dev.state()).natsUrl });
    try {
      nats.publish("troupe.session.a.b.in", '{"type":"user.message","text":"lost?"}');
      await nats.flush();
    } finally {
      await nats.close();
    }
    let letters: { code: string; subject: string; reason: string; data?: string }[] = [];
    await waitFor(
      async () => {
        const listed = await troupe(["dead-letters", "--json"]);
        letters = JSON.parse(listed.stdout) as typeof letters;
        return letters.some((letter) => letter.subject === "troupe.session.a.b.in");
      },
      { timeoutMs: 20_000, description: "the unroutable dead letter listed" },
    );
    const letter = letters.find((entry) => entry.subject === "troupe.session.a.b.in")!;
    expect(letter.code).toBe("unroutable_subject");
    expect(letter.reason).toContain('No route for the subject "troupe.session.a.b.in"');
    expect(Buffer.from(letter.data!, "base64").toString()).toBe(
      '{"type":"user.message","text":"lost?"}',
    );
    const text = await troupe(["dead-letters", "--limit", "5"]);
    expect(text.stdout).toMatch(
      /unroutable_subject\s+troupe\.session\.a\.b\.in\s+\{"type":"user\.message","text":"lost\?"\}\s+No route/,
    );
    expect(text.code).toBe(0);
    const status = await troupe(["status", "--json"]);
    const report = JSON.parse(status.stdout) as {
      totals: { deadLetters: number; unroutableDeadLetters: number };
    };
    expect(report.totals.unroutableDeadLetters).toBe(1);
    expect(report.totals.deadLetters).toBeGreaterThanOrEqual(1);
    const statusText = await troupe(["status"]);
    expect(statusText.stdout).toMatch(
      /dead letters\s+\d+ \(1 unroutable subject\) — troupe deadletters lists them/,
    );
  }, 60_000);

  it("Ctrl-C at the chat prompt leaves the chat cleanly", async () => {
    const chat = startPtyChat("chat-pty-2", dev.home);
    try {
      await waitFor(() => chat.plain().includes("you ›"), {
        timeoutMs: 30_000,
        description: "prompt",
      });
      chat.type("\x03");
      expect(await chat.exited).toBe(0);
    } finally {
      chat.kill();
    }
    expect(chat.plain()).toContain("bye. Continue with: npx troupe chat chat-pty-2");
  }, 60_000);

  it("a conversation completes when the host running it is killed with SIGKILL", async () => {
    const state = await dev.state();
    const client = await TroupeClient.connect({ natsUrl: state.natsUrl });
    const nats = await connect({ servers: state.natsUrl });
    try {
      const from = (await client.lastSequence()) + 1;
      const sending = troupe(["send", "demo-kill", "/slow 150", "--wait"], 90_000);
      // Wait until the answer streams, then kill the host that owns the run actor.
      for await (const event of client.events("demo-kill", { fromSequence: from })) {
        if (event.event.type === "run.delta") break;
      }
      const inspection = await inspectActor(
        { redis, jsm: await jetstreamManager(nats), shardCount: 64 },
        "run/demo-kill",
      );
      const owner = state.hosts.find((host) => host.hostId === inspection.lease.owner);
      expect(owner, `lease owner ${inspection.lease.owner}`).toBeDefined();
      process.kill(owner!.pid, "SIGKILL");
      const result = await sending;
      expect(result.stdout).toBe(
        "This answer streams slowly, one word at a time, so that there is time to cancel " +
          "the run or to stop the host while the model call is still streaming its text.\n",
      );
      expect(result.code).toBe(0);
      await waitFor(() => dev.output().includes(`pid ${owner!.pid}) exited: SIGKILL`), {
        timeoutMs: 10_000,
        description: "troupe dev reports the killed host",
      });
    } finally {
      await client.close();
      await nats.close();
    }
  }, 120_000);
});
