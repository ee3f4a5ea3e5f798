import {
  decodeTranscriptEntry,
  MAX_TEXT_LENGTH,
  streamNames,
  transcriptSubject,
} from "@troupe/protocol";
import { TroupeClient } from "@troupe/client";
import { ensureStreams } from "@troupe/runtime/internal";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServers } from "../harness/start-test-servers.js";
import { testRunMarker } from "../harness/test-run-marker.js";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  runTroupe,
  startTroupeDev,
  type PtyChat,
  type TroupeDev,
  startPtyChat,
} from "../support/troupe-cli.js";
import { readStream } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

/** The demo's `/slow` answer, streamed one word at a time. */
const SLOW_ANSWER =
  "This answer streams slowly, one word at a time, so that there is time to cancel " +
  "the run or to stop the host while the model call is still streaming its text.";

/** Positions of `marks` in `text`, each searched after the previous one (-1: missing). */
function inOrder(text: string, marks: readonly string[]): number[] {
  let position = -1;
  return marks.map((mark) => (position = text.indexOf(mark, position + 1)));
}

// Issue #13: `troupe chat` loses no input (type-ahead in a terminal, piped
// stdin), `troupe send <id> -` reads stdin, and `troupe tail --until-idle`
// stops when the session waits on a human.
describe("troupe chat, send - and tail --until-idle input and stop rules", () => {
  let dev: TroupeDev;

  beforeAll(async () => {
    dev = await startTroupeDev(["--hosts", "1"]);
  }, 120_000);

  afterAll(async () => {
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  const troupe = (args: string[], timeoutMs = 60_000) =>
    runTroupe(args, { home: dev.home, timeoutMs });

  /** Runs `troupe <args>` with `input` on stdin (a pipe, then EOF). */
  const troupeWithInput = (args: string[], input: string) =>
    runTroupe(args, { home: dev.home, input });

  it("chat in a pseudo-terminal: lines typed during an answer are not echoed into it and are sent after it, an approval takes the line typed after it", async () => {
    const chat = startPtyChat("chat-ahead-1", dev.home);
    const { plain, count } = chat;
    try {
      await waitFor(() => count("you ›") >= 1, { timeoutMs: 30_000, description: "prompt" });
      chat.type("/slow 200\n");
      await waitFor(() => plain().includes("agent › This answer"), {
        timeoutMs: 30_000,
        description: "the slow answer streaming",
      });
      // Typed (one key at a time would be the same) while the answer streams.
      chat.type("email bob@example.com typed ahead\nwhat time is it in London?\n");
      await waitFor(() => plain().includes("approve send_email? [y/N]"), {
        timeoutMs: 30_000,
        description: "the approval of the first typed-ahead message",
      });
      // The queued clock question did not answer the approval: it waits still.
      expect(plain()).not.toContain("⚙ clock");
      chat.type("y\n");
      await waitFor(() => plain().includes("It is ") && count("you ›") >= 4, {
        timeoutMs: 30_000,
        description: "the second typed-ahead message answered, then the prompt",
      });
      chat.type("/exit\n");
      expect(await chat.exited).toBe(0);
    } finally {
      chat.kill();
    }
    const text = plain();
    // The answer streamed whole, with nothing typed echoed into it.
    expect(text).toContain(`agent › ${SLOW_ANSWER}\n`);
    const positions = inOrder(text, [
      `agent › ${SLOW_ANSWER}`,
      "you › email bob@example.com typed ahead (typed ahead; 1 more queued)",
      "approve send_email? [y/N] y",
      "agent › Sent the email to bob@example.com.",
      "you › what time is it in London? (typed ahead)",
      "⚙ clock",
      "agent › It is ",
      "in Europe/London.",
    ]);
    expect(
      positions.every((position) => position >= 0),
      `${positions.join()} in:\n${text}`,
    ).toBe(true);
    expect(count("you › what time is it in London?")).toBe(1);
  }, 120_000);

  it("piped chat with three lines prints three answers in order and exits 0", async () => {
    const result = await troupeWithInput(
      ["chat", "chat-piped-1"],
      "first message\nsecond message\nthird message\n",
    );
    expect(result.code, result.stderr).toBe(0);
    const positions = inOrder(result.stdout, [
      "you › first message",
      "agent › You said: first message",
      "you › second message",
      "agent › You said: second message",
      "you › third message",
      "agent › You said: third message",
      "bye. Continue with: npx troupe chat chat-piped-1",
    ]);
    expect(
      positions.every((position) => position >= 0),
      result.stdout,
    ).toBe(true);
    expect(result.stdout).not.toContain("the chat was closed");
    // A failed run still lets the next line through, and the exit code says it failed.
    const failed = await troupeWithInput(["chat", "chat-piped-2"], "/fail\nafter the failure\n");
    expect(failed.code).toBe(1);
    expect(
      inOrder(failed.stdout, [
        "✗ run r1 failed (model_error)",
        "agent › You said: after the failure",
      ]),
    ).not.toContain(-1);
  }, 60_000);

  it("chat --attach uploads the files before the first prompt and sends their references with the first message only (issue #19)", async () => {
    const folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}attach-`));
    try {
      const png = join(folder, "dot.png");
      await writeFile(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]));
      const notes = join(folder, "notes");
      await writeFile(notes, "remember the milk");
      const result = await troupeWithInput(
        ["chat", "chat-attach-1", "--attach", png, "--attach", `text/plain:${notes}`],
        "what is in these?\nand now?\n",
      );
      expect(result.code, result.stderr).toBe(0);
      expect(
        inOrder(result.stdout, [
          "· attached to your first message: dot.png, notes",
          "agent › You said: what is in these?",
          "agent › You said: and now?",
        ]),
        result.stdout,
      ).not.toContain(-1);
      const nats = await connect({ servers: (await dev.state()).natsUrl });
      try {
        const users = (
          await readStream(
            jetstream(nats),
            streamNames("troupe").transcript,
            transcriptSubject("chat-attach-1"),
          )
        )
          .map((message) => decodeTranscriptEntry(message.data)?.entry)
          .filter((entry) => entry?.role === "user");
        expect(users.map((entry) => entry?.text)).toEqual(["what is in these?", "and now?"]);
        expect(users[0]).toMatchObject({
          attachments: [
            { mediaType: "image/png", size: 10, name: "dot.png" },
            { mediaType: "text/plain", size: 17, name: "notes" },
          ],
        });
        expect(users[1]).not.toHaveProperty("attachments");
      } finally {
        await nats.close();
      }
      // A file whose media type cannot be told: refused before connecting, nothing sent.
      const unknown = await troupeWithInput(
        ["chat", "chat-attach-2", "--attach", "data.bin"],
        "hi\n",
      );
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("--attach image/png:data.bin");
      // A refused file is named (one of several), and --json says what kind of
      // error a script got: the user's input, not a fault of Troupe.
      const empty = join(folder, "empty.png");
      await writeFile(empty, "");
      const refused = await troupeWithInput(
        ["send", "send-attach-3", "look", "--attach", png, "--attach", empty, "--json"],
        "",
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`--attach ${empty}: The media has no bytes.`);
      expect(JSON.parse(refused.stdout.trim().split("\n").at(-1)!)).toMatchObject({
        ok: false,
        error: { code: "media_rejected" },
      });
      const sent = await troupeWithInput(["send", "send-attach-5", "look", "--attach", png], "");
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stderr).toContain("· attached: dot.png (10 bytes)");
      const blank = await troupeWithInput(["send", "send-attach-4", "   ", "--json"], "");
      expect(JSON.parse(blank.stdout.trim().split("\n").at(-1)!)).toMatchObject({
        ok: false,
        error: { code: "invalid_options", message: "the message text is empty" },
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it("send - reads the text from stdin, above the shell's 128 KiB argument cap, and refuses one over the limit before sending", async () => {
    const text = `long ${"ab".repeat(75_000)}`; // 150,005 characters > 131,072
    const sent = await troupeWithInput(["send", "send-stdin-1", "-", "--wait"], `${text}\n`);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toBe(`You said: ${text}\n`);

    const tooLong = await troupeWithInput(
      ["send", "send-stdin-2", "-"],
      "x".repeat(MAX_TEXT_LENGTH + 1),
    );
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain(
      "error: The message text from stdin is too long: a user message's text is at most " +
        "262,144 characters (UTF-16 code units; the encoded message at most 1 MiB), this one " +
        "is 262,145 characters. Nothing was sent.",
    );
    // Nothing reached the session's inbox (the refusal comes before the publish).
    const nats = await connect({ servers: (await dev.state()).natsUrl });
    try {
      const info = await (
        await jetstreamManager(nats)
      ).streams.info(streamNames("troupe").inbox, {
        subjects_filter: "troupe.session.send-stdin-2.in",
      });
      expect(info.state.subjects ?? {}).toEqual({});
    } finally {
      await nats.close();
    }
    const help = await troupe(["send", "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain("At most 262,144 characters");
  }, 60_000);

  it("send --wait of a failing run: exit 1, the failure said once", async () => {
    const failed = await troupe(["send", "send-fail-1", "/fail", "--wait"]);
    expect(failed.code).toBe(1);
    const failure = "the demo model refuses this request";
    expect(failed.stderr.split(failure).length - 1, failed.stderr).toBe(1);
    expect(failed.stderr).toContain("✗ run r1 failed (model_error)");
  }, 60_000);

  it("tail --until-idle stops with exit 3 on a pending approval (--json says so), and with 0 once it was settled and the session is idle", async () => {
    // Piped input that ends while the approval waits: chat says how to settle it, exit 3.
    const chat = await troupeWithInput(["chat", "tail-wait-1"], "email ada@example.com hi\n");
    expect(chat.code, chat.stdout).toBe(3);
    const toolCallId = /troupe approve tail-wait-1 (\S+)/.exec(chat.stdout)?.[1];
    expect(toolCallId, chat.stdout).toBeDefined();
    expect(chat.stdout).toContain(
      `· the input ended while send_email waits for approval: troupe approve tail-wait-1 ${toolCallId}`,
    );

    const waiting = await troupe(["tail", "tail-wait-1", "--from", "1", "--until-idle"]);
    expect(waiting.code).toBe(3);
    expect(waiting.stdout).toContain(
      `· waiting for approval of send_email ${toolCallId}: troupe approve tail-wait-1 ${toolCallId}\n`,
    );
    const waitingJson = await troupe(["tail", "tail-wait-1", "--until-idle", "--json"]);
    expect(waitingJson.code).toBe(3);
    expect(JSON.parse(waitingJson.stdout.trim().split("\n").at(-1)!)).toEqual({
      stop: "waiting_on_human",
      waits: [{ kind: "approval", toolCallId, tool: "send_email", runId: "r1" }],
    });

    const approved = await troupe(["approve", "tail-wait-1", toolCallId!]);
    expect(approved.code, approved.stderr).toBe(0);
    // Replaying the whole history passes the settled approval and stops idle.
    const idle = await troupe(["tail", "tail-wait-1", "--from", "1", "--until-idle", "--json"]);
    expect(idle.code).toBe(0);
    const lines = idle.stdout.trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toEqual({ stop: "idle" });
    const types = lines
      .slice(0, -1)
      .map((line) => (JSON.parse(line) as { event: { type: string } }).event.type);
    expect(
      inOrder(types.join(" "), [
        "tool.approval_requested",
        "tool.approval_settled",
        "run.completed",
        "session.idle",
      ]).every((position) => position >= 0),
    ).toBe(true);
    expect(types.at(-1)).toBe("session.idle");
  }, 90_000);

  it("a question: piped chat answers it with the next line; left unanswered, tail --until-idle stops with exit 3 and the answer command", async () => {
    const question = '/tool ask_user {"question":"Which city?"}';
    const answered = await troupeWithInput(["chat", "question-1"], `${question}\nOslo\n`);
    expect(answered.code, answered.stdout).toBe(0);
    const positions = inOrder(answered.stdout, [
      "? Which city?",
      "your answer › Oslo",
      "agent › ask_user: Oslo",
    ]);
    expect(
      positions.every((position) => position >= 0),
      answered.stdout,
    ).toBe(true);
    // The answer's deltas (their own stream) may show before the tool's events: any order.
    expect(answered.stdout).toContain("↳ answered: Oslo");

    const left = await troupeWithInput(["chat", "question-2"], `${question}\n`);
    expect(left.code, left.stdout).toBe(3);
    const waiting = await troupe(["tail", "question-2", "--until-idle"]);
    expect(waiting.code).toBe(3);
    expect(waiting.stdout).toMatch(
      /^· waiting for an answer to (\S+) \(Which city\?\): troupe answer question-2 \1 <text>\n$/,
    );
  }, 60_000);

  it("chat picks up a session left waiting on a human: a second piped chat asks the open approval (or question) first, takes the next line, shows the answer, exit 0", async () => {
    const left = await troupeWithInput(["chat", "resume-1"], "email bob@example.com hi\n");
    expect(left.code, left.stdout).toBe(3);
    const resumed = await troupeWithInput(["chat", "resume-1"], "y\nthanks\n");
    expect(resumed.code, resumed.stdout).toBe(0);
    expect(
      inOrder(resumed.stdout, [
        "⏸ send_email",
        "approve send_email? [y/N] y",
        "✓ send_email approved",
        "agent › Sent the email to bob@example.com.",
        "you › thanks",
        "agent › You said: thanks",
        "bye. Continue with: npx troupe chat resume-1",
      ]),
      resumed.stdout,
    ).not.toContain(-1);
    // The "y" answered the approval: it was never sent as a message.
    expect(resumed.stdout).not.toContain("you › y");
    expect(resumed.stdout).not.toContain("queued");

    const question = '/tool ask_user {"question":"Which city?"}';
    const unanswered = await troupeWithInput(["chat", "resume-2"], `${question}\n`);
    expect(unanswered.code, unanswered.stdout).toBe(3);
    const answered = await troupeWithInput(["chat", "resume-2"], "Oslo\n");
    expect(answered.code, answered.stdout).toBe(0);
    expect(
      inOrder(answered.stdout, [
        "? Which city?",
        "your answer › Oslo",
        "agent › ask_user: Oslo",
        "bye.",
      ]),
      answered.stdout,
    ).not.toContain(-1);
    // (The answer's text and the tool's events stream side by side: any order.)
    expect(answered.stdout).toContain("↳ answered: Oslo");
    expect(answered.stdout).not.toContain("you › Oslo");

    // An idle session starts at the prompt with nothing replayed.
    const idle = await troupeWithInput(["chat", "resume-2"], "again\n");
    expect(idle.code, idle.stdout).toBe(0);
    expect(idle.stdout).not.toContain("Which city?");
    expect(idle.stdout).toContain("agent › You said: again");
  }, 90_000);

  it("chat of a session whose run is in progress follows that run to its end before its first line", async () => {
    const first = troupeWithInput(["chat", "resume-3"], "/slow 400\n");
    const client = await TroupeClient.connect({ natsUrl: (await dev.state()).natsUrl });
    try {
      // The slow run started (message.accepted, run.started, …) and streams for ~14 s.
      await waitFor(async () => (await client.storedEventCount("resume-3")) >= 3, {
        timeoutMs: 30_000,
        description: "the slow run of the first chat started",
      });
    } finally {
      await client.close();
    }
    const second = await troupeWithInput(["chat", "resume-3"], "next line\n");
    expect(second.code, second.stdout).toBe(0);
    expect(
      inOrder(second.stdout, [
        "· a run of this session is in progress; its answer follows",
        "streaming its text.",
        "you › next line",
        "agent › You said: next line",
      ]),
      second.stdout,
    ).not.toContain(-1);
    expect((await first).code).toBe(0);
  }, 90_000);
});

// Issue #13: chat does not wait in silence for a cluster that stopped under it.
describe("troupe chat when the cluster is gone", () => {
  it("a line typed after troupe dev stopped: chat says NATS is gone and how to continue, exit 4", async () => {
    // Its own dev: the shared one must not be stopped.
    const dev = await startTroupeDev(["--hosts", "1"]);
    let chat: PtyChat | undefined;
    try {
      chat = startPtyChat("gone-1", dev.home);
      const { plain, count } = chat;
      await waitFor(() => count("you ›") >= 1, { timeoutMs: 30_000, description: "prompt" });
      chat.type("first line\n");
      await waitFor(() => plain().includes("agent › You said: first line"), {
        timeoutMs: 30_000,
        description: "the first answer",
      });
      expect(await dev.stop()).toBe(0);
      chat.type("are you there?\n");
      expect(await chat.exited, plain()).toBe(4);
      const text = plain();
      // Whichever comes first: the request's timeout or the lost connection's grace period.
      expect(text).toMatch(
        /· (NATS at \S+ did not answer in time \(sending the line timed out\)|lost the connection to NATS at \S+ \(no answer for \d+ s\)): the cluster stopped\?/,
      );
      expect(text).toContain("continue with `npx troupe chat gone-1`");
      expect(text).not.toContain("error: timeout");
    } finally {
      chat?.kill();
      await dev.stop();
    }
  }, 120_000);

  it("a NATS server no host runs against: exit 4 saying so at once; with streams but no host, after the line waited 20 s", async () => {
    await using servers = await startTestServers();
    const home = await mkdtemp(join(tmpdir(), `${testRunMarker()}chat-nohost-`));
    try {
      const chat = (input: string) =>
        runTroupe(["chat", "nohost-1"], {
          home,
          input,
          env: { TROUPE_NATS_URL: servers.natsUrl },
          timeoutMs: 60_000,
        });
      const noStreams = await chat("anyone there?\n");
      expect(noStreams.code, noStreams.stdout + noStreams.stderr).toBe(4);
      expect(noStreams.stdout).toMatch(
        /· no Troupe host has run against NATS at \S+ \(the session streams are missing\): start one/,
      );

      // Streams, as a host that stopped leaves them, but no host.
      const nats = await connect({ servers: servers.natsUrl });
      try {
        await ensureStreams(await jetstreamManager(nats), streamNames("troupe"), {
          journalRetentionMs: 60_000,
          eventRetentionMs: 60_000,
          transcriptRetentionMs: 0,
          duplicateWindowMs: 60_000,
        });
      } finally {
        await nats.close();
      }
      const noHost = await chat("anyone there?\n");
      expect(noHost.code, noHost.stdout + noHost.stderr).toBe(4);
      expect(noHost.stdout).toContain(
        "· no host answered in 20 s: is `npx troupe dev` running? The line is stored in the " +
          "session's inbox and is answered once a host runs; continue with `npx troupe chat nohost-1`",
      );
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 90_000);
});
