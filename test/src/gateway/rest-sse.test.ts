import { TroupeClient } from "@troupe/client";
import { serveGateway, type ServingGateway } from "@troupe/gateway";
import { jetstream } from "@nats-io/jetstream";
import { connect, headers } from "@nats-io/transport-node";
import { encodeEvent, eventSubject } from "@troupe/protocol";
import { connect as connectSocket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SseReader, type SseEvent } from "../support/sse-reader.js";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { startTroupeGateway } from "../support/troupe-gateway-process.js";
import { waitFor } from "../support/wait-for.js";

/** The demo model's answer to `/slow` (actors/models/src/models/demo-script.ts). */
const SLOW_ANSWER =
  "This answer streams slowly, one word at a time, so that there is time to cancel " +
  "the run or to stop the host while the model call is still streaming its text.";

const TOKEN = "sse-test-token-0123";
/** Stored events of the slow client's session before it connects. */
const FILLER_EVENTS = 160;

async function openEvents(
  baseUrl: string,
  sessionId: string,
  cursor: { from?: number; lastEventId?: string },
): Promise<SseReader> {
  const query = cursor.from === undefined ? "" : `?from=${cursor.from}`;
  const response = await fetch(`${baseUrl}/v1/sessions/${sessionId}/events${query}`, {
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(cursor.lastEventId === undefined ? {} : { "last-event-id": cursor.lastEventId }),
    },
  });
  expect(response.status).toBe(200);
  return new SseReader(response);
}

const hasType = (type: string) => (events: readonly SseEvent[]) =>
  events.some((event) => event.event === type);

/** The text of the `run.delta` events of kind text, in order. */
function deltaText(events: readonly SseEvent[]): string {
  return events
    .filter((event) => event.event === "run.delta")
    .map((event) => JSON.parse(event.data) as { payload: { kind: string; text: string } })
    .filter((event) => event.payload.kind === "text")
    .map((event) => event.payload.text)
    .join("");
}

// issue #16, "Must show: SSE resume with Last-Event-ID after a gateway process
// restart: no gap, no duplicate", and "Backpressure: a slow SSE client never
// stalls the host or other clients".
describe("gateway SSE: resume and backpressure", () => {
  let dev: TroupeDev;
  let client: TroupeClient;

  beforeAll(async () => {
    dev = await startTroupeDev(["--no-gateway"]);
    client = await TroupeClient.connect({ natsUrl: (await dev.state()).natsUrl });
  }, 150_000);

  afterAll(async () => {
    await client?.close();
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  it("resumes with Last-Event-ID on a new troupe gateway process after the first was killed mid-answer: no gap, no duplicate", async () => {
    const sessionId = "sse-restart";
    const first = await startTroupeGateway(dev.home, ["--token", TOKEN]);
    let before: SseEvent[];
    try {
      const reader = await openEvents(first.url, sessionId, { from: 1 });
      await client.send(sessionId, { text: "/slow 150" });
      before = [
        ...(await reader.readUntil(
          (events) => events.filter((event) => event.event === "run.delta").length >= 4,
          30_000,
        )),
      ];
    } finally {
      await first.kill(); // SIGKILL: the connection drops mid-answer
    }
    expect(before.some((event) => event.event === "run.completed")).toBe(false);
    const lastEventId = before.at(-1)!.id!;
    expect(lastEventId).toMatch(/^\d+\.\d+$/); // a delta's id: <seq>.<k>

    const second = await startTroupeGateway(dev.home, ["--token", TOKEN]);
    try {
      expect(second.url).not.toBe("");
      const resumed = await openEvents(second.url, sessionId, { from: 1, lastEventId });
      const after = [...(await resumed.readUntil(hasType("run.completed"), 30_000))];
      expect(resumed.done, `the resumed stream ended early:\n${second.output()}`).toBe(false);
      await resumed.cancel();
      const all = [...before, ...after];

      // No duplicate: every id once. No gap: the durable events are exactly the
      // stored ones, and the deltas add up to the answer once.
      const ids = all.map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      const reference = await openEvents(second.url, sessionId, { from: 1 });
      const whole = await reference.readUntil(hasType("run.completed"), 30_000);
      await reference.cancel();
      // Up to the run's end: a chunk may carry events after it (session.idle).
      const durableIds = (events: readonly SseEvent[]) =>
        events
          .slice(0, events.findIndex((event) => event.event === "run.completed") + 1)
          .filter((event) => /^\d+$/.test(event.id ?? ""))
          .map((event) => event.id);
      expect(durableIds(all)).toEqual(durableIds(whole));
      expect(deltaText(all)).toBe(SLOW_ANSWER);
      expect(deltaText(whole)).toBe(SLOW_ANSWER);
      const completed = all.find((event) => event.event === "run.completed")!;
      expect(JSON.parse(completed.data)).toMatchObject({ payload: { text: SLOW_ANSWER } });
    } finally {
      await second.stop();
    }
  });

  describe("a slow client", () => {
    let gateway: ServingGateway;
    const logged: string[] = [];

    beforeAll(async () => {
      gateway = await serveGateway({
        client,
        port: 0,
        auth: { tokens: [{ token: TOKEN }] },
        console: false,
        limits: { streamBufferChunks: 2, stallTimeoutMs: 2_000, keepAliveMs: 60_000 },
        log: (line) => logged.push(line),
      });
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it("is cut once its buffer stays full, while another client and the session's run go on", async () => {
      const sessionId = "sse-slow";
      // A history of about 8 MB, more than the kernel's socket buffers hold
      // (up to 4 MiB to send here): stored events of 50 kB each, published
      // straight into the events stream (no host reads it back).
      const nats = await connect({ servers: (await dev.state()).natsUrl });
      try {
        const js = jetstream(nats);
        const filler = "x".repeat(50_000);
        for (let n = 1; n <= FILLER_EVENTS; n++) {
          const { bytes, contentType } = encodeEvent({
            v: 1,
            id: `filler-${n}`,
            type: "session.created",
            payload: { sessionId, metadata: { filler } },
            meta: { actor: `session/${sessionId}-filler`, seq: n, timestampMs: Date.now() },
          });
          const eventHeaders = headers();
          eventHeaders.set("Content-Type", contentType);
          await js.publish(
            eventSubject({ kind: "session", id: sessionId }, "session.created"),
            bytes,
            {
              headers: eventHeaders,
            },
          );
        }
      } finally {
        await nats.close();
      }
      const { port } = new URL(gateway.url);
      const socket = connectSocket(Number(port), "127.0.0.1");
      let received = 0;
      let closed = false;
      socket.on("close", () => (closed = true));
      socket.on("error", () => undefined);
      socket.write(
        `GET /v1/sessions/${sessionId}/events?from=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Authorization: Bearer ${TOKEN}\r\n\r\n`,
      );
      socket.once("data", (chunk: Buffer) => {
        received += chunk.length;
        socket.pause(); // stops reading: the kernel buffers fill, then the gateway's queue
      });
      // Another client reads the same history at its own pace, meanwhile.
      const other = await openEvents(gateway.url, sessionId, { from: 1 });
      // Cheap on purpose (each event looked at once): a reader behind for 2 s
      // per chunk would be cut too. Not only the latest event: another event
      // may follow the run's completion in the same chunk.
      let scanned = 0;
      const helloCompleted = (seen: readonly SseEvent[]) => {
        for (; scanned < seen.length; scanned++) {
          const event = seen[scanned]!;
          if (event.event === "run.completed" && event.data.includes('"text":"Hello! I am')) {
            return true;
          }
        }
        return false;
      };
      // The clock runs from here: through the slow client's cut and the run.
      const otherRead = other.readUntil(helloCompleted, 150_000);
      try {
        await waitFor(() => logged.some((line) => line.includes(`events stream of ${sessionId}`)), {
          timeoutMs: 60_000,
          description: "the slow client cut",
        });
        // The session goes on, and so does the other client.
        const outcome = await client.sendAndWait(sessionId, "hello", { timeoutMs: 60_000 });
        expect(outcome.status).toBe("completed");
        const events = await otherRead;
        expect(other.done).toBe(false);
        expect(events.filter((event) => event.event === "session.created")).toHaveLength(
          FILLER_EVENTS + 1,
        );
        expect(events.filter((event) => event.event === "run.completed")).toHaveLength(1);
        expect(logged.filter((line) => line.includes("cut the events stream"))).toHaveLength(1);
        // The slow client's connection was closed: reading again drains it to its end.
        socket.on("data", (chunk: Buffer) => (received += chunk.length));
        socket.resume();
        await waitFor(() => closed, { timeoutMs: 30_000, description: "the socket closed" });
        expect(closed).toBe(true);
        expect(received).toBeGreaterThan(0);
      } finally {
        await other.cancel();
        socket.destroy();
      }
    }, 180_000);
  });
});
