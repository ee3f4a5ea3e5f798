import { formatDurationMs } from "./format-duration-ms.js";
import type { ActorInspection, PinnedDefinitionView, ShardLeaseView } from "./inspect-actor.js";
import type { SnapshotGenerationView } from "./snapshot-generation-view.js";
import { labelledLines, textTable } from "./text-table.js";

/** Longest context text {@link formatActorInspection} prints, in characters. */
export const CONTEXT_PREVIEW_CHARS = 600;

/**
 * Renders an {@link ActorInspection} as plain text for `troupe inspect`: a
 * summary (shard, lease, outbox), a table of the stored generations (newest
 * first), the latest generation's effects, timers and context (JSON, cut at
 * {@link CONTEXT_PREVIEW_CHARS}), and any notes. No colors.
 *
 * @param inspection - from `inspectActor`.
 * @returns the text, lines joined with `\n`, no trailing newline.
 */
export function formatActorInspection(inspection: ActorInspection): string {
  const summary = labelledLines([
    ["actor", inspection.address],
    ["exists", inspection.exists ? "yes" : "no (no snapshot stored)"],
    ["shard", `${inspection.shard} of ${inspection.shardCount}`],
    ["lease", formatLease(inspection.lease)],
    [
      "last token",
      inspection.lastFencingToken === undefined ? "-" : String(inspection.lastFencingToken),
    ],
    [
      "outbox",
      inspection.outboxConfirmed === undefined
        ? "-"
        : inspection.outboxConfirmed
          ? "confirmed published"
          : "not confirmed yet",
    ],
    ["dirty", inspection.dirty ? "yes (effects running or outbox unconfirmed)" : "no"],
    ...(inspection.definition === undefined
      ? []
      : [["definition", formatPinnedDefinition(inspection.definition)] as [string, string]]),
  ]);
  const sections = [summary];
  if (inspection.generations.length > 0) {
    sections.push(generationTable(inspection.generations));
  }
  const latest = inspection.generations.find((generation) => generation.latest);
  if (latest !== undefined) sections.push(latestDetails(latest));
  if (inspection.notes.length > 0) {
    sections.push(["notes:", ...inspection.notes.map((note) => `  - ${note}`)].join("\n"));
  }
  return sections.join("\n\n");
}

/**
 * A pinned agent definition as one line: `cashier version 2 (sha256 1a2b3c4d5e6f), migrated from version 1 (sha256 …)`.
 *
 * @param view - from `inspectActor`'s `definition`.
 */
export function formatPinnedDefinition(view: PinnedDefinitionView): string {
  const one = (pin: { hash: string; version?: string }) =>
    `${pin.version === undefined ? "no version" : `version ${pin.version}`} (sha256 ${pin.hash.slice(0, 12)})`;
  const agent = view.agent ?? "the default agent";
  const migrated =
    view.migratedFrom === undefined ? "" : `, migrated from ${one(view.migratedFrom)}`;
  return `${agent} ${one(view)}${migrated}`;
}

function formatLease(lease: ShardLeaseView): string {
  if (lease.owner === undefined) return "free (no host holds the shard)";
  const parts = [`token ${lease.fencingToken ?? "?"}`];
  if (lease.remainingMs !== undefined) parts.push(`${formatDurationMs(lease.remainingMs)} left`);
  return `${lease.owner} (${parts.join(", ")})`;
}

function generationTable(generations: readonly SnapshotGenerationView[]): string {
  return textTable(
    [
      { heading: "gen", align: "right" },
      { heading: "" },
      { heading: "version" },
      { heading: "status" },
      { heading: "state" },
      { heading: "event seq", align: "right" },
      { heading: "inbox seq", align: "right" },
      { heading: "effects", align: "right" },
      { heading: "timers", align: "right" },
      { heading: "outbox", align: "right" },
    ],
    generations.map((generation) => [
      String(generation.generation),
      generation.latest ? "latest" : "",
      generation.machineVersion ?? "-",
      generation.status ?? "-",
      formatStateValue(generation.stateValue),
      String(generation.eventSeq),
      String(generation.inboxSeq),
      String(generation.effects.length),
      String(generation.timers.length),
      String(generation.outboxItems),
    ]),
  );
}

/**
 * A state value as text: `idle`, `running.waiting`, or for parallel states
 * `{a: x, b: y.z}`.
 *
 * @param value - xstate state value (string or nested object).
 * @returns the text; `-` when missing.
 */
export function formatStateValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "-";
  if (typeof value !== "object") return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1) {
    const [key, child] = entries[0] ?? ["", undefined];
    const inner = formatStateValue(child);
    return inner === "-" ||
      (typeof child === "object" && child !== null && Object.keys(child).length === 0)
      ? key
      : `${key}.${inner}`;
  }
  return `{${entries.map(([key, child]) => `${key}: ${formatStateValue(child)}`).join(", ")}}`;
}

function latestDetails(latest: SnapshotGenerationView): string {
  const lines = [`latest generation ${latest.generation}`];
  if (latest.effects.length === 0) lines.push("  effects  none pending");
  else {
    lines.push("  effects");
    lines.push(
      indent(
        textTable(
          [{ heading: "id" }, { heading: "effect" }, { heading: "" }],
          latest.effects.map((effect) => [
            effect.effectId,
            effect.effect,
            effect.cancelled ? "cancelled" : "",
          ]),
        ),
        4,
      ),
    );
  }
  if (latest.timers.length === 0) lines.push("  timers   none armed");
  else {
    lines.push("  timers");
    lines.push(
      indent(
        textTable(
          [{ heading: "id" }, { heading: "event" }, { heading: "due" }, { heading: "at" }],
          latest.timers.map((timer) => [
            timer.timerId,
            timer.eventType,
            timer.dueInMs < 0
              ? `overdue by ${formatDurationMs(-timer.dueInMs)}`
              : `in ${formatDurationMs(timer.dueInMs)}`,
            new Date(timer.deadlineMs).toISOString(),
          ]),
        ),
        4,
      ),
    );
  }
  const context = JSON.stringify(latest.context);
  lines.push(
    `  context  ${
      context.length > CONTEXT_PREVIEW_CHARS
        ? `${context.slice(0, CONTEXT_PREVIEW_CHARS)}… (${context.length} chars)`
        : context
    }`,
  );
  return lines.join("\n");
}

function indent(text: string, spaces: number): string {
  return text
    .split("\n")
    .map((line) => `${" ".repeat(spaces)}${line}`)
    .join("\n");
}
