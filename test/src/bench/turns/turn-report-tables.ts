import { count, fixed, ms } from "../format-numbers.js";
import { renderMarkdownTable } from "../markdown-table.js";
import type { CpuPerTurn } from "./cpu-per-turn.js";
import type { LongSessionResult } from "./measure-long-session.js";
import {
  reportedStreams,
  type DeploymentSize,
  type ManySessionsResult,
} from "./measure-many-sessions.js";
import type { SequentialTurnsResult } from "./measure-sequential-turns.js";
import { judgeAtMost, ratioOf, turnGoals } from "./turn-goals.js";
import type { AgentTurnResults, TurnKind } from "./turn-results.js";

const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);
const kilobytes = (bytes: number) => (bytes / 1e3).toFixed(2);

/** Message 1 vs message 500: latency and CPU per message of both windows and their ratios. */
export function longSessionTable(long: LongSessionResult | undefined): string | undefined {
  if (long === undefined) return undefined;
  const cpu = (value: CpuPerTurn, label: string) => {
    const perMessage = label === "total" ? value.totalMs : value.byLabelMs[label];
    return perMessage === undefined ? "—" : ms(perMessage);
  };
  const row = (part: LongSessionResult["first"]) => [
    `messages ${part.from}–${part.to}`,
    ms(part.latency.p50Ms),
    ms(part.latency.p99Ms),
    cpu(part.cpu, "host"),
    cpu(part.cpu, "total"),
  ];
  const { first, last } = long;
  return renderMarkdownTable(
    [
      { header: `one session, ${count(long.messages)} sequential plain turns`, align: "left" },
      { header: "p50 (ms)", align: "right" },
      { header: "p99 (ms)", align: "right" },
      { header: "host CPU per message (ms)", align: "right" },
      { header: "host + servers CPU per message (ms)", align: "right" },
    ],
    [
      row(first),
      row(last),
      [
        `ratio (goal ≤ ${turnGoals.longSession.maxRatio}×)`,
        fixed(ratioOf(last.latency.p50Ms, first.latency.p50Ms)),
        fixed(ratioOf(last.latency.p99Ms, first.latency.p99Ms)),
        fixed(ratioOf(last.cpu.byLabelMs.host, first.cpu.byLabelMs.host)),
        fixed(ratioOf(last.cpu.totalMs, first.cpu.totalMs)),
      ],
    ],
  );
}

/** The 10,000-sessions row: host memory, Redis and actors before, right after and after passivation. */
export function manySessionsTable(many: ManySessionsResult | undefined): string | undefined {
  if (many === undefined) return undefined;
  const { before, after, passivated, sessions } = many;
  const three = (value: (size: DeploymentSize) => string) => [
    value(before),
    value(after),
    value(passivated),
  ];
  const active = after.host.activeActors - passivated.host.activeActors;
  const heapPerActor = ratioOf(after.host.heapUsedBytes - passivated.host.heapUsedBytes, active);
  const heapBack = passivated.host.heapUsedBytes / before.host.heapUsedBytes;
  const heapRetained = (passivated.host.heapUsedBytes - before.host.heapUsedBytes) / sessions;
  const redisBytes = (passivated.redis.usedMemoryBytes - before.redis.usedMemoryBytes) / sessions;
  const redisKeys = (passivated.redis.keys - before.redis.keys) / sessions;
  const heapMet = judgeAtMost({ heap: heapPerActor }, turnGoals.heap.bytesPerActiveActor, " B");
  const backMet = heapBack <= turnGoals.heap.nearBaselineRatio ? "yes" : "no";
  return renderMarkdownTable(
    [
      { header: `${count(sessions)} new sessions, one turn each, 1 host`, align: "left" },
      { header: "before", align: "right" },
      { header: "right after", align: "right" },
      { header: "after passivation", align: "right" },
      { header: "per unit", align: "right" },
      { header: "goal (issue #12)", align: "left" },
      { header: "met", align: "left" },
    ],
    [
      [
        "host heap used (MB, after a full GC)",
        ...three((size) => megabytes(size.host.heapUsedBytes)),
        heapPerActor === undefined ? "—" : `${kilobytes(heapPerActor)} KB per active actor`,
        turnGoals.heap.text,
        `per actor ${heapMet}; back near baseline ${backMet} (${fixed(heapBack)}× before)`,
      ],
      [
        "host heap kept after passivation (bytes)",
        "—",
        "—",
        "—",
        `${count(heapRetained)} B per session`,
        "—",
        "—",
      ],
      ["host RSS (MB)", ...three((size) => megabytes(size.host.rssBytes)), "—", "—", "—"],
      ["host active actors", ...three((size) => count(size.host.activeActors)), "—", "—", "—"],
      [
        "Redis used_memory (MB)",
        ...three((size) => megabytes(size.redis.usedMemoryBytes)),
        `${kilobytes(redisBytes)} KB per idle session`,
        turnGoals.redis.text,
        judgeAtMost({ Redis: redisBytes }, turnGoals.redis.bytesPerIdleSession, " B"),
      ],
      [
        "Redis keys (DBSIZE)",
        ...three((size) => count(size.redis.keys)),
        `${redisKeys.toFixed(2)} per idle session`,
        "—",
        "—",
      ],
    ],
  );
}

/** JetStream growth per turn of the 10,000-sessions run, stream by stream. */
export function streamTable(many: ManySessionsResult | undefined): string | undefined {
  if (many === undefined) return undefined;
  const rows = reportedStreams.map((stream) => {
    const before = many.before.streams[stream];
    const after = many.passivated.streams[stream];
    const messages = (after.messages - before.messages) / many.sessions;
    const bytes = (after.bytes - before.bytes) / many.sessions;
    return [
      stream,
      messages.toFixed(2),
      count(bytes),
      messages > 0 ? count(bytes / messages) : "—",
    ];
  });
  return renderMarkdownTable(
    [
      { header: `JetStream per turn (${count(many.sessions)} new sessions)`, align: "left" },
      { header: "messages per turn", align: "right" },
      { header: "bytes per turn", align: "right" },
      { header: "bytes per message", align: "right" },
    ],
    rows,
  );
}

/** One per-hop table per sequential turn kind measured. */
export function breakdownTables(
  sequential: Readonly<Record<TurnKind, SequentialTurnsResult | undefined>>,
  labels: Readonly<Record<TurnKind, string>>,
): string[] {
  return (["plain", "read", "write"] as const).flatMap((kind) => {
    const breakdown = sequential[kind]?.breakdown;
    if (breakdown === undefined || breakdown.rows.length === 0) return [];
    return [
      renderMarkdownTable(
        [
          {
            header: `${labels[kind]}: hop (median of ${breakdown.turns} turns)`,
            align: "left",
          },
          { header: "since user.message stored (ms)", align: "right" },
          { header: "since previous (ms)", align: "right" },
        ],
        breakdown.rows.map((row) => [
          row.label,
          row.sinceUserMessageMs === undefined ? "—" : ms(row.sinceUserMessageMs),
          row.sincePreviousMs === undefined ? "—" : ms(row.sincePreviousMs),
        ]),
      ),
    ];
  });
}

/** CPU per turn of every row, by process. */
export function cpuTable(
  results: AgentTurnResults,
  labels: Readonly<Record<TurnKind, string>>,
): string {
  const rows: [string, CpuPerTurn | undefined][] = [
    ...(["plain", "read", "write"] as const).map((kind): [string, CpuPerTurn | undefined] => [
      `${labels[kind]}, sequential`,
      results.sequential[kind]?.cpu,
    ]),
    ...(results.longSession === undefined
      ? []
      : [results.longSession.first, results.longSession.last].map((part): [string, CpuPerTurn] => [
          `one session, messages ${part.from}–${part.to}`,
          part.cpu,
        ])),
    ...results.concurrent.map((run): [string, CpuPerTurn | undefined] => [
      `${labels[run.kind]}s, ${run.inFlight} in flight`,
      run.result?.cpu,
    ]),
    [`${count(results.manySessions?.sessions ?? 0)} new sessions`, results.manySessions?.cpu],
  ];
  const cell = (cpu: CpuPerTurn | undefined, label: string) => {
    const value = label === "total" ? cpu?.totalMs : cpu?.byLabelMs[label];
    return value === undefined ? "—" : ms(value);
  };
  return renderMarkdownTable(
    [
      { header: "CPU per turn (ms)", align: "left" },
      { header: "host", align: "right" },
      { header: "nats-server", align: "right" },
      { header: "redis-server", align: "right" },
      { header: "total", align: "right" },
      { header: "bench client (not in total)", align: "right" },
    ],
    rows.map(([label, cpu]) => [
      label,
      ...["host", "nats-server", "redis-server", "total", "node"].map((name) => cell(cpu, name)),
    ]),
  );
}
