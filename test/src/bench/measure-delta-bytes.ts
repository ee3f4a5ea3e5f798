/**
 * Prints the JetStream bytes one streamed 1,000-token answer leaves in the
 * events stream and in the deltas stream (issue #11). Starts its own servers
 * and one agent host (scripted demo model), sends one plain JSON user message
 * of 1,000 words (`tok`, one token and one delta each), waits for
 * `session.idle`, reads `jsm.streams.info(name).state`, and stops.
 *
 * Run from `test/`:
 *   node --import tsx --conditions=@troupe/source src/bench/measure-delta-bytes.ts
 *
 * Works on a checkout from before the deltas stream (it then reports the
 * deltas stream as missing). Output: one JSON line.
 */
import { startCluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";

const WORDS = 1_000;
const sessionId = "delta-bytes";

const cluster = await startCluster({ shardCount: 8 });
try {
  const host = await cluster.startHost({}, { entry: "test/src/fixtures/agent-host.ts" });
  await cluster.waitForOwners([host.hostId], 30_000);
  const log = followSession(cluster.nats, sessionId);
  await cluster.publishToSession(sessionId, {
    type: "user.message",
    text: Array.from({ length: WORDS }, () => "tok").join(" "),
  });
  await log.until(
    (events) => events.some((event) => event.type === "session.idle"),
    120_000,
    "session.idle",
  );
  const completed = log.payloads("run.completed")[0] as
    { text: string; usage: { outputTokens: number } } | undefined;
  const state = async (name: string) => {
    try {
      const { messages, bytes } = (await cluster.jsm.streams.info(name)).state;
      return { name, messages, bytes };
    } catch {
      return { name, missing: true };
    }
  };
  const streams = cluster.streams as { events: string; deltas?: string };
  const events = await state(streams.events);
  const deltas = await state(streams.deltas ?? "TROUPE_DELTAS");
  process.stdout.write(
    `${JSON.stringify({
      outputTokens: completed?.usage.outputTokens,
      answerChars: completed?.text.length,
      deltasPublished: log.ofType("run.delta").length,
      events,
      deltas,
    })}\n`,
  );
  log.stop();
} finally {
  await cluster.stop();
}
