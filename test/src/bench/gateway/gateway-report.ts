import { count, ms } from "../format-numbers.js";
import type { LatencySummary } from "../latency-summary.js";
import { machineFactLines, type MachineFacts } from "../machine-facts.js";
import { renderMarkdownTable } from "../markdown-table.js";
import type { FanOutResult, FanOutVia } from "./measure-fan-out.js";
import type { GatewayFloors } from "./measure-floors.js";
import type { GatewayTurnsResult, TurnPathResult } from "./measure-gateway-turns.js";

/** How the run was configured (for the notes). */
export interface GatewayBenchSettings {
  readonly text: string;
  readonly sessionsPerPath: number;
  readonly warmupRounds: number;
  readonly rounds: number;
  readonly floorSamples: number;
  readonly fanOutTurns: number;
  readonly quick: boolean;
}

/** One fan-out level; `result` undefined when it failed. */
export interface FanOutRun {
  readonly via: FanOutVia;
  readonly followers: number;
  readonly result: FanOutResult | undefined;
}

/** Everything one gateway benchmark run measured (a part is missing when its phase failed). */
export interface GatewayBenchResults {
  readonly facts: MachineFacts | undefined;
  readonly loadAverageAtEnd1m: number;
  readonly settings: GatewayBenchSettings;
  readonly floors: GatewayFloors | undefined;
  readonly turns: GatewayTurnsResult | undefined;
  readonly fanOut: readonly FanOutRun[];
  /** Phases run (`--only` leaves some out; their tables are left out too). */
  readonly phases: readonly ("floors" | "turns" | "fan-out")[];
  readonly errors: readonly string[];
  readonly durationMs: number;
}

const dash = "—";
const p50 = (summary: LatencySummary | undefined) =>
  summary === undefined ? "error" : ms(summary.p50Ms);
const p99 = (summary: LatencySummary | undefined) =>
  summary === undefined ? "error" : ms(summary.p99Ms);
const samples = (summary: LatencySummary | undefined) =>
  summary === undefined ? dash : count(summary.count);
const megabytes = (bytes: number | undefined) =>
  bytes === undefined ? dash : (bytes / 1e6).toFixed(1);
const kinds = (result: TurnPathResult | undefined) =>
  result === undefined
    ? "?"
    : Object.keys(result.firstKinds)
        .map((kind) => `\`${kind}\``)
        .join(", ");

/** The overhead table: each gateway path beside the same through the client. */
export function overheadTable(results: GatewayBenchResults): string {
  const turns = results.turns?.paths;
  const rows: [string, LatencySummary | undefined, LatencySummary | undefined][] = [
    [
      "publish → first event of the turn (`message.accepted`): `client.send` + `events()` vs `POST /v1/sessions/:id/messages` + SSE",
      turns?.["client-events"]?.first,
      turns?.["gateway-rest"]?.first,
    ],
    [
      `publish → first byte: \`client.send\` + \`events()\` vs \`POST /api/chat\` (first chunk ${kinds(turns?.["gateway-chat"])})`,
      turns?.["client-events"]?.first,
      turns?.["gateway-chat"]?.first,
    ],
    [
      "full turn, followed stream: `client.send` → `run.completed` on `events()` vs `POST …/messages` → `run.completed` on SSE",
      turns?.["client-events"]?.turn,
      turns?.["gateway-rest"]?.turn,
    ],
    [
      "full turn, one call: `client.sendAndWait` vs `POST /api/chat` → `finish` chunk",
      turns?.["client-send-and-wait"]?.turn,
      turns?.["gateway-chat"]?.turn,
    ],
  ];
  return renderMarkdownTable(
    [
      { header: "measurement (ms)", align: "left" },
      { header: "client p50", align: "right" },
      { header: "client p99", align: "right" },
      { header: "gateway p50", align: "right" },
      { header: "gateway p99", align: "right" },
      { header: "overhead p50", align: "right" },
      { header: "overhead p99", align: "right" },
      { header: "samples", align: "right" },
    ],
    [
      ...rows.map(([label, client, gateway]) => [
        label,
        p50(client),
        p99(client),
        p50(gateway),
        p99(gateway),
        client === undefined || gateway === undefined ? dash : ms(gateway.p50Ms - client.p50Ms),
        client === undefined || gateway === undefined ? dash : ms(gateway.p99Ms - client.p99Ms),
        samples(gateway),
      ]),
      [
        "`POST /v1/sessions/:id/messages` → its 202",
        dash,
        dash,
        p50(turns?.["gateway-rest"]?.post),
        p99(turns?.["gateway-rest"]?.post),
        dash,
        dash,
        samples(turns?.["gateway-rest"]?.post),
      ],
    ],
  );
}

/** The floors measured in the same run. */
export function floorTable(floors: GatewayFloors | undefined): string {
  const rows: [string, LatencySummary | undefined][] = [
    ["NATS core request → reply (two connections)", floors?.natsRequestReply],
    ["JetStream publish (acked) → ordered consumer delivery", floors?.jetStreamPublishConsume],
    [
      "HTTP `GET` of an unknown `/v1` route → 404 (gateway process, no NATS)",
      floors?.gatewayHttpRoundTrip,
    ],
  ];
  return renderMarkdownTable(
    [
      { header: "floor, same run (ms)", align: "left" },
      { header: "p50", align: "right" },
      { header: "p99", align: "right" },
      { header: "samples", align: "right" },
    ],
    rows.map(([label, summary]) => [label, p50(summary), p99(summary), samples(summary)]),
  );
}

/** The fan-out table: one row per number of followers. */
export function fanOutTable(runs: readonly FanOutRun[]): string {
  return renderMarkdownTable(
    [
      { header: "followers of one session", align: "left" },
      { header: "opened", align: "right" },
      { header: "events per turn", align: "right" },
      { header: "delivery p50 (ms)", align: "right" },
      { header: "delivery p99 (ms)", align: "right" },
      { header: "delivery max (ms)", align: "right" },
      { header: "since cause p50 (ms)", align: "right" },
      { header: "since cause p99 (ms)", align: "right" },
      { header: "deliveries", align: "right" },
      { header: "missing", align: "right" },
      { header: "cut", align: "right" },
      { header: "turn p50 (ms)", align: "right" },
      { header: "gateway CPU per turn (ms)", align: "right" },
      { header: "nats-server CPU per turn (ms)", align: "right" },
      { header: "reader CPU per turn (ms)", align: "right" },
      { header: "gateway RSS before → peak (MB)", align: "right" },
    ],
    runs.map(({ via, followers, result }) =>
      result === undefined
        ? [followerLabel(via, followers), "error", ...Array<string>(14).fill(dash)]
        : [
            followerLabel(via, followers),
            count(followers - result.openFailures),
            result.eventsPerTurn.toFixed(1),
            p50(result.delivery),
            p99(result.delivery),
            result.delivery === undefined ? dash : ms(result.delivery.maxMs),
            p50(result.sinceCause),
            p99(result.sinceCause),
            samples(result.delivery),
            count(result.missing),
            count(result.cut),
            ms(result.turn.p50Ms),
            cpu(result.cpuPerTurnMs.gateway),
            cpu(result.cpuPerTurnMs["nats-server"]),
            cpu(result.cpuPerTurnMs.node),
            `${megabytes(result.gatewayRssBeforeBytes)} → ${megabytes(result.gatewayRssPeakBytes)}`,
          ],
    ),
  );
}

const cpu = (value: number | undefined) => (value === undefined ? dash : ms(value));
const followerLabel = (via: FanOutVia, followers: number) =>
  `${count(followers)} × ${via === "gateway" ? "SSE (gateway)" : "`client.events` (direct)"}`;

/**
 * Renders the gateway benchmark (issue #16) as a Markdown section: machine
 * facts, the overhead table, the floors, the fan-out table and the notes.
 *
 * @param results - what the run measured.
 * @returns the section, ending with a newline.
 */
export function renderGatewayReport(results: GatewayBenchResults): string {
  const { settings } = results;
  const notes = [
    `Setup: one bench agent host child process (\`test/src/fixtures/bench-agent-host.ts\`, the scripted demo model with no latency, text \`${settings.text}\`), one \`troupe gateway --port 0 --no-console\` child process (no token, loopback), the benchmark process as the HTTP and NATS client (Node's \`fetch\`, SSE parsed with \`eventsource-parser\`); local \`nats-server\` and \`redis-server\`.`,
    `Overhead rows: ${count(settings.rounds)} rounds after ${count(settings.warmupRounds)} warm-up rounds; a round is one turn of each of the four paths in an order rotated per round, each path round robin over its own ${settings.sessionsPerPath} sessions, one turn in flight. The followers (\`client.events\` iteration, \`GET /v1/sessions/:id/events\` stream) are opened before the rounds and kept; the clock starts before \`client.send\` / \`fetch\`. \`POST /api/chat\` sends what \`DefaultChatTransport\` sends for a new message (only the new message, not a history). Overhead = gateway − client of the same percentile.`,
    "`client.sendAndWait` reads the stream's last sequence and opens an events consumer per call; `POST /api/chat` does what the gateway does for it. Both are the one-call way to run a turn on their side.",
    `Floors: ${count(settings.floorSamples)} sequential samples each after warm-up, on the same servers and gateway process.`,
    `Fan-out: per level a fresh session, N followers opened at once after its first turn (SSE: \`GET /v1/sessions/:id/events\` with \`Last-Event-ID\`; direct, for comparison: \`client.events\` iterations in the benchmark process from the next sequence), one warm-up turn every follower must receive, then ${settings.fanOutTurns} sequential \`client.sendAndWait\` turns, in a window that opens and closes once the session published nothing for 200 ms (so each turn's trailing events count). An event's publish time is its arrival on a core NATS subscription of the benchmark process to \`troupe.session.<id>.events.>\` (which carries the public copy of each \`run.delta\` too); a delivery's latency is a follower's arrival of the same envelope id minus that, over every (follower, event) pair. The benchmark process parses all N streams (or runs N iterations) on the event loop that also runs the reference subscription, so at high N part of the delay is the reader's, and the reference itself can arrive late (a negative delivery latency). "Since cause" does not depend on this process's clock for its start: a follower's arrival minus the event's \`meta.timestampMs\`, the JetStream stored time of the inbox message that caused it (so it includes the host's work on that message; ms resolution). Missing = pairs not delivered within the settle time; cut = streams that ended before the benchmark closed them. CPU per turn: per-thread schedstat of the gateway and \`nats-server\` between the first measured turn and the last delivery, and the reader's (the benchmark process: N SSE parsers, or N \`client.events\` iterations, plus the turns' \`sendAndWait\`); RSS of the gateway from \`/proc/<pid>/status\`, sampled every 100 ms.`,
    ...results.fanOut.flatMap(({ via, followers, result }) =>
      result === undefined || result.missing === 0
        ? []
        : [
            `Missing at ${followerLabel(via, followers)}: ${Object.entries(result.missingByType)
              .map(([type, missed]) => `${count(missed)} \`${type}\``)
              .join(", ")} (of ${count(result.followersMissing)} followers).`,
          ],
    ),
    ...results.errors.map((error) => `Error: ${error}`),
    `Duration: ${(results.durationMs / 1000).toFixed(1)} s.`,
  ];
  return [
    "## Gateway benchmark (issue #16)",
    "",
    "Written by `npm run bench:gateway` (`test/src/bench/gateway-bench.ts`).",
    "",
    machineFactLines(results.facts, results.loadAverageAtEnd1m),
    "",
    ...(results.phases.includes("turns") ? [overheadTable(results), ""] : []),
    ...(results.phases.includes("floors") ? [floorTable(results.floors), ""] : []),
    ...(results.phases.includes("fan-out") ? [fanOutTable(results.fanOut), ""] : []),
    ...notes.map((note) => `- ${note}`),
    "",
  ].join("\n");
}
