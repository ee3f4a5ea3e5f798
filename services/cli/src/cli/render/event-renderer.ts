import type { RunDelta } from "@troupe/protocol";
import { DeltaTracker } from "./delta-tracker.js";
import { eventLines } from "./event-lines.js";
import { formatValue } from "./format-value.js";
import { knownEvent, type KnownEvent } from "./known-event.js";
import { renderColors, type RenderColors } from "./render-colors.js";
import type { RenderableEvent } from "./renderable-event.js";

/** Options of {@link EventRenderer}. */
export interface EventRendererOptions {
  /** Whether to use ANSI colors; `false` gives plain text. */
  readonly color: boolean;
  /** The session whose events are rendered (its approvals and questions name it in commands). */
  readonly sessionId: string;
  /** Start each line with the event's stream sequence (`#12 `); default `false`. */
  readonly showSequence?: boolean | undefined;
}

/**
 * Turns a session's events into terminal text for `troupe tail` and `troupe
 * chat`. Pure and synchronous: it keeps a little state (the open line, the
 * deltas printed, tool and subagent names) and never throws.
 *
 * - `run.delta` text is printed inline as it streams; reasoning deltas dim. A
 *   higher `attempt` of the same model call prints `↻ streaming again (stream attempt n)` on
 *   a line of its own before its text (the earlier text is void); a delta
 *   already printed (same call, attempt and `index`: the stream replays
 *   stored deltas) or of a superseded attempt is skipped.
 * - `run.completed` ends the streamed line, or prints the answer when none of
 *   it streamed since the run's last tool call; `run.cancelled` likewise with
 *   its partial text, then a yellow line.
 * - Every other event is one or more whole lines ({@link eventLines}), except a
 *   `tool.failed` (`denied`) after its `tool.approval_settled` already said so; an
 *   unknown type, or a payload its schema refuses, a dim `type {json}` line.
 * - Runs of a subagent's session (their `run.started` comes from another
 *   session) are indented, and their answer is left to `subagent.completed`.
 *
 * @example
 * ```ts
 * const renderer = new EventRenderer({ color: process.stdout.isTTY, sessionId });
 * for await (const event of client.events(sessionId)) process.stdout.write(renderer.render(event));
 * ```
 */
export class EventRenderer {
  readonly #colors: RenderColors;
  readonly #sessionId: string;
  readonly #showSequence: boolean;
  readonly #deltas = new DeltaTracker();
  /** The model call (and kind) whose text is on the current line, if any. */
  #stream: string | undefined;
  /** Whether the cursor is at the start of a line. */
  #atLineStart = true;
  /** Runs whose answer text streamed since their last tool call. */
  readonly #streamedRuns = new Set<string>();
  /** Runs of subagents' sessions. */
  readonly #subagentRuns = new Set<string>();
  /** Subagents' runs that have not ended yet (`<session>/<runId>`). */
  readonly #activeSubagentRuns = new Set<string>();
  readonly #toolNames = new Map<string, string>();
  readonly #toolArguments = new Map<string, unknown>();
  readonly #subagentNames = new Map<string, string>();
  /** Calls whose approval was denied or timed out: their `tool.failed` (`denied`) says it again. */
  readonly #deniedCalls = new Set<string>();

  /** @param options - see {@link EventRendererOptions}. */
  constructor(options: EventRendererOptions) {
    this.#colors = renderColors(options.color);
    this.#sessionId = options.sessionId;
    this.#showSequence = options.showSequence ?? false;
  }

  /**
   * The text to write for one event: possibly empty, possibly ending mid-line
   * (streamed text). Write it as is, in event order.
   *
   * @param item - the event and its stream sequence.
   * @returns text for standard output.
   */
  render(item: RenderableEvent): string {
    try {
      const event = knownEvent(item.event);
      if (event === undefined) return this.#lines(item, [this.#unknownLine(item)]);
      // Run ids restart at r1 in every session, and a subagent's session
      // publishes on its parent's subjects: run state is kept per session.
      const scope = sessionScope(event.meta.actor);
      this.#remember(event, scope);
      const indent = this.#isSubagentRun(event, scope) ? "  " : "";
      switch (event.type) {
        case "run.delta":
          return this.#delta(item, event.payload, indent, scope ?? this.#sessionId);
        case "run.completed":
          return this.#runEnded(
            item,
            runKey(scope ?? this.#sessionId, event.payload.runId),
            event.payload.text,
            [],
            indent,
          );
        case "run.cancelled": {
          const { runId, partialText, reason } = event.payload;
          const line = this.#colors.yellow(
            `⊘ run ${runId} cancelled${reason === undefined ? "" : `: ${reason}`}`,
          );
          return this.#runEnded(
            item,
            runKey(scope ?? this.#sessionId, runId),
            partialText ?? "",
            [line],
            indent,
          );
        }
        case "tool.failed":
          if (
            event.payload.error.code === "denied" &&
            this.#deniedCalls.has(event.payload.toolCallId)
          )
            return "";
          return this.#lines(item, eventLines(event, this.#context()), indent);
        default:
          return this.#lines(item, eventLines(event, this.#context()), indent);
      }
    } catch {
      return this.#lines(item, [this.#unknownLine(item)]);
    }
  }

  #remember(event: KnownEvent, scope: string | undefined): void {
    switch (event.type) {
      case "run.started":
        if (scope !== undefined && scope !== this.#sessionId) {
          this.#subagentRuns.add(runKey(scope, event.payload.runId));
          this.#activeSubagentRuns.add(runKey(scope, event.payload.runId));
        }
        break;
      case "run.completed":
      case "run.failed":
      case "run.cancelled":
        if (scope !== undefined)
          this.#activeSubagentRuns.delete(runKey(scope, event.payload.runId));
        break;
      case "tool.started":
      case "tool.approval_requested":
        this.#toolNames.set(event.payload.toolCallId, event.payload.tool);
        if (event.type === "tool.approval_requested") {
          this.#toolArguments.set(event.payload.toolCallId, event.payload.arguments);
        }
        this.#textEnded(scope, event.payload.runId);
        break;
      case "tool.approval_settled":
        if (event.payload.decision !== "approved") this.#deniedCalls.add(event.payload.toolCallId);
        break;
      case "question.asked":
        this.#textEnded(scope, event.payload.runId);
        break;
      case "subagent.started":
        if (event.payload.agent !== undefined)
          this.#subagentNames.set(event.payload.subagent, event.payload.agent);
        break;
    }
  }

  /** After a tool call or a question, a run's next text is a new answer. */
  #textEnded(scope: string | undefined, runId: string): void {
    if (scope !== undefined) {
      this.#streamedRuns.delete(runKey(scope, runId));
      return;
    }
    // A tool call's actor does not name its session: end the text of every run with that id.
    for (const key of this.#streamedRuns)
      if (key.endsWith(`/${runId}`)) this.#streamedRuns.delete(key);
  }

  #isSubagentRun(event: KnownEvent, scope: string | undefined): boolean {
    const payload = event.payload as { runId?: unknown; sessionId?: unknown };
    if (typeof payload.runId !== "string") return false;
    const session =
      scope ?? (typeof payload.sessionId === "string" ? payload.sessionId : undefined);
    if (session !== undefined) return this.#subagentRuns.has(runKey(session, payload.runId));
    // A tool call's actor does not name its session: while a subagent's run with
    // this id is active, the parent's run waits on it, so the call is the subagent's.
    const runId = payload.runId;
    return [...this.#activeSubagentRuns].some((key) => key.endsWith(`/${runId}`));
  }

  #delta(item: RenderableEvent, payload: RunDelta, indent: string, scope: string): string {
    const delta: RunDelta = {
      ...payload,
      runId: runKey(scope, payload.runId),
      ...(payload.modelCallId === undefined
        ? {}
        : { modelCallId: runKey(scope, payload.modelCallId) }),
    };
    const decision = this.#deltas.accept(delta);
    if (decision === "skip" || delta.text === "") return "";
    const stream = `${delta.modelCallId ?? delta.runId}:${delta.kind}`;
    let out = "";
    if (decision === "retry") {
      out +=
        this.#closeLine() +
        this.#colors.dim(`↻ streaming again (stream attempt ${delta.attempt})`) +
        "\n";
    } else if (this.#stream !== stream) {
      out += this.#closeLine();
    }
    if (this.#atLineStart) out += this.#prefix(item) + indent;
    this.#stream = stream;
    const text = delta.text.replace(/\n/g, `\n${indent}`);
    out += delta.kind === "reasoning" ? this.#colors.dim(text) : text;
    this.#atLineStart = delta.text.endsWith("\n");
    if (delta.kind === "text") this.#streamedRuns.add(delta.runId);
    return out;
  }

  #runEnded(
    item: RenderableEvent,
    runId: string,
    text: string,
    lines: string[],
    indent: string,
  ): string {
    const streamed = this.#streamedRuns.has(runId);
    this.#streamedRuns.delete(runId);
    this.#deltas.endRun(runId);
    const answer = streamed || text === "" || this.#subagentRuns.has(runId) ? [] : [text];
    return this.#closeLine() + this.#lines(item, [...answer, ...lines], indent);
  }

  #lines(item: RenderableEvent, lines: readonly string[], indent = ""): string {
    if (lines.length === 0) return "";
    const body = lines.map(
      (line, index) =>
        (index === 0 ? this.#prefix(item) : "") +
        indent +
        (indent === "" ? line : line.replace(/\n/g, `\n${indent}`)),
    );
    return `${this.#closeLine()}${body.join("\n")}\n`;
  }

  #closeLine(): string {
    const out = this.#atLineStart ? "" : "\n";
    this.#atLineStart = true;
    this.#stream = undefined;
    return out;
  }

  #prefix(item: RenderableEvent): string {
    return this.#showSequence ? this.#colors.dim(`#${item.sequence} `) : "";
  }

  #unknownLine({ event }: RenderableEvent): string {
    return this.#colors.dim(`${String(event.type)} ${formatValue(event.payload ?? null)}`);
  }

  #context() {
    return {
      colors: this.#colors,
      sessionId: this.#sessionId,
      toolName: (toolCallId: string) => this.#toolNames.get(toolCallId),
      toolArguments: (toolCallId: string) => this.#toolArguments.get(toolCallId),
      subagentName: (subagent: string) => this.#subagentNames.get(subagent),
    };
  }
}

/** The session an event's actor belongs to: the id of `session/<id>` and `run/<id>`. */
function sessionScope(actor: string): string | undefined {
  const slash = actor.indexOf("/");
  const kind = actor.slice(0, slash);
  return kind === "session" || kind === "run" ? actor.slice(slash + 1) : undefined;
}

/** A run's key: run ids restart at `r1` in every session. */
function runKey(session: string, runId: string): string {
  return `${session}/${runId}`;
}
