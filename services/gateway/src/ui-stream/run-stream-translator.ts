import type { SessionEvent } from "@troupe/client";
import type { UIMessageChunk } from "ai";
import { RunTree, splitActor } from "./run-tree.js";
import { ToolParts } from "./tool-parts.js";
import { approvalIdOf, runMessageId, uiToolCallId } from "./ui-ids.js";

/** The `messageMetadata` of a run's `start` chunk. Shape: `{ sessionId, runId, runStartSequence }`. */
export interface RunMessageMetadata {
  readonly sessionId: string;
  readonly runId: string;
  /** Events-stream sequence of the run's `run.started`. */
  readonly runStartSequence: number;
}

/** The streaming state of one model call of the root run. */
interface ModelCall {
  readonly modelCallId: string;
  attempt: number;
  lastIndex: number;
  /** Open parts by kind (`text` / `reasoning`): their chunk ids. */
  readonly open: Map<"text" | "reasoning", string>;
  parts: number;
}

/** A subagent's streamed text, shown as a `data-subagent` part. */
interface SubagentView {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly agent: string | undefined;
  readonly task: string;
  status: "running" | "completed" | "failed" | "cancelled";
  /** Text of each model call's latest stream attempt, in order. */
  readonly texts: Map<string, { attempt: number; lastIndex: number; text: string }>;
  final: string | undefined;
}

/** A chunk emitted in the open step and the root model call it came from (for `reset-step`). */
interface LoggedChunk {
  readonly chunk: UIMessageChunk;
  readonly modelCallId: string | undefined;
}

/**
 * Translates the events of ONE run tree of a session — the session's run,
 * its tool calls and its subagents' runs — into AI SDK UI message stream
 * chunks (`ai` 7, `UIMessageChunk`; decision 0027). Pure: feed
 * events in events-stream order (durable events and the transient
 * `run.delta` / `tool.progress` that `TroupeClient.events` merges in) with
 * {@link RunStreamTranslator.push}; it returns the chunks to send.
 *
 * - `run.started` → `start` (`messageId` {@link runMessageId},
 *   `messageMetadata` {@link RunMessageMetadata}); events before it, of other
 *   runs, or of other sessions are ignored.
 * - each model call of the run is a step (`start-step` / `finish-step`), its
 *   `run.delta`s text and reasoning parts (`*-start` / `*-delta` / `*-end`);
 *   a delta with a higher stream attempt of the same model call emits
 *   `reset-step` (the client drops the step's parts), the step's other chunks
 *   again, then the new attempt; a delta seen before (same attempt, index not
 *   above the last) or of a superseded attempt is dropped.
 * - tool calls (of the run and of its subagents) → dynamic tool parts, see `ToolParts`.
 * - a subagent's text → a `data-subagent` part (id: its session), updated in place.
 * - `question.asked` / `question.answered` → a `data-question` part, updated in place.
 * - `run.completed` → `finish` (`stop`, usage in the metadata); `run.failed`
 *   → `error`; `run.cancelled` → `abort`; {@link RunStreamTranslator.ended} turns true.
 */
export class RunStreamTranslator {
  private tree: RunTree | undefined;
  private startSequence = 0;
  private done = false;
  private stepOpen = false;
  /** Whether a text delta of the root run was sent (see `endRun`). */
  private rootTextShown = false;
  private stepLog: LoggedChunk[] = [];
  private current: ModelCall | undefined;
  private readonly modelCalls = new Map<string, ModelCall>();
  private readonly subagentViews = new Map<string, SubagentView>();
  private readonly questions = new Map<string, Record<string, unknown>>();
  private readonly progressIndex = new Map<string, number>();
  private tools: ToolParts | undefined;
  private out: UIMessageChunk[] = [];

  /**
   * @param sessionId - the session the stream follows.
   * @param options - `runId`: the run to show (default: the first run that
   *   starts in the events given).
   */
  constructor(
    readonly sessionId: string,
    private readonly options: { readonly runId?: string } = {},
  ) {}

  /** The run shown, once its `run.started` was seen. */
  get runId(): string | undefined {
    return this.tree?.rootRunId;
  }

  /** Events-stream sequence of the run's `run.started` (0 before). */
  get runStartSequence(): number {
    return this.startSequence;
  }

  /** Whether the run ended (its end chunk was returned). */
  get ended(): boolean {
    return this.done;
  }

  /** The `start` chunk of the run (to open a continuation stream); `undefined` before `run.started`. */
  startChunk(): UIMessageChunk | undefined {
    if (this.tree === undefined) return undefined;
    const metadata: RunMessageMetadata = {
      sessionId: this.sessionId,
      runId: this.tree.rootRunId,
      runStartSequence: this.startSequence,
    };
    return {
      type: "start",
      messageId: runMessageId(this.sessionId, this.tree.rootRunId),
      messageMetadata: metadata,
    };
  }

  /**
   * Whether the run tree waits for people only: at least one tool call awaits
   * approval and every other unsettled call awaits approval too (or is a
   * subagent delegation whose subagent waits so). The chat route ends a live
   * stream here, so `addToolApprovalResponse` can send the next POST.
   */
  get awaitingApprovalsOnly(): boolean {
    return !this.done && this.tools !== undefined && this.tools.awaitingApprovalsOnly();
  }

  /** `approvalId`s of the tool calls that wait for their approval now (requested, not settled). */
  get awaitingApprovalIds(): ReadonlySet<string> {
    return this.tools?.awaitingApprovalIds() ?? new Set();
  }

  /** `approvalId`s of every `tool-approval-request` returned so far. */
  get requestedApprovalIds(): ReadonlySet<string> {
    return this.tools?.requestedApprovalIds ?? new Set();
  }

  /**
   * Takes the next event.
   *
   * @param sessionEvent - as `TroupeClient.events` yields it.
   * @returns the chunks to send, in order (often none).
   */
  push(sessionEvent: SessionEvent): UIMessageChunk[] {
    this.out = [];
    if (this.done) return this.out;
    const { event, sequence } = sessionEvent;
    const actor = splitActor(event.meta.actor);
    if (this.tree === undefined) {
      if (
        event.type === "run.started" &&
        event.meta.actor === `session/${this.sessionId}` &&
        (this.options.runId === undefined || event.payload.runId === this.options.runId)
      ) {
        this.tree = new RunTree(this.sessionId, event.payload.runId);
        this.tools = new ToolParts(this.tree, (chunk) => this.emitInStep(chunk));
        this.startSequence = sequence;
        const start = this.startChunk();
        if (start !== undefined) this.out.push(start);
      }
      return this.out;
    }
    const tree = this.tree;
    const ownSession = actor.id === this.sessionId && actor.kind !== "tool";
    switch (event.type) {
      case "run.started":
        if (actor.kind === "session" && tree.isSubagent(actor.id)) {
          tree.addRun(actor.id, event.payload.runId);
        }
        break;
      case "run.delta":
        if (actor.kind !== "run") break;
        if (ownSession && event.payload.runId === tree.rootRunId) this.rootDelta(event.payload);
        else if (tree.isSubagent(actor.id) && tree.hasRun(actor.id, event.payload.runId)) {
          this.subagentDelta(actor.id, event.payload);
        }
        break;
      case "run.completed":
      case "run.failed":
      case "run.cancelled":
        if (ownSession && actor.kind === "run" && event.payload.runId === tree.rootRunId) {
          this.endRun(event);
        } else if (tree.isSubagent(actor.id) && tree.hasRun(actor.id, event.payload.runId)) {
          this.subagentEnded(actor.id, event.type);
        }
        break;
      case "subagent.started":
      case "subagent.completed":
        this.subagentEvent(event, actor.id);
        break;
      case "question.asked":
      case "question.answered":
        this.questionEvent(event, actor);
        break;
      default:
        if (actor.kind === "tool" && event.type.startsWith("tool.")) {
          this.toolProgressOrCall(sessionEvent, actor.id);
        }
    }
    return this.out;
  }

  private rootDelta(delta: {
    modelCallId?: string | undefined;
    attempt: number;
    kind: "text" | "reasoning";
    text: string;
    index?: number | undefined;
  }): void {
    const modelCallId = delta.modelCallId ?? "model";
    let call = this.modelCalls.get(modelCallId);
    if (call === undefined) {
      this.closeModelCall();
      if (this.stepOpen && this.stepLog.length > 0) this.finishStep();
      if (!this.stepOpen) this.startStep();
      call = { modelCallId, attempt: delta.attempt, lastIndex: -1, open: new Map(), parts: 0 };
      this.modelCalls.set(modelCallId, call);
      this.current = call;
    }
    if (delta.attempt < call.attempt) return;
    if (delta.attempt > call.attempt) {
      this.resetModelCall(call);
      call.attempt = delta.attempt;
      call.lastIndex = -1;
    }
    if (delta.index !== undefined) {
      if (delta.index <= call.lastIndex) return;
      call.lastIndex = delta.index;
    }
    if (delta.text === "") return;
    if (!this.stepOpen) this.startStep();
    let id = call.open.get(delta.kind);
    if (id === undefined) {
      id = `${modelCallId}:${call.attempt}:${delta.kind}:${call.parts++}`;
      call.open.set(delta.kind, id);
      this.emitInStep({ type: `${delta.kind}-start`, id }, modelCallId);
    }
    this.emitInStep({ type: `${delta.kind}-delta`, id, delta: delta.text }, modelCallId);
    if (delta.kind === "text") this.rootTextShown = true;
  }

  /** A higher stream attempt: the step loses the superseded attempt's parts, keeps the rest. */
  private resetModelCall(call: ModelCall): void {
    call.open.clear();
    if (!this.stepLog.some((logged) => logged.modelCallId === call.modelCallId)) return;
    const kept = this.stepLog.filter((logged) => logged.modelCallId !== call.modelCallId);
    this.out.push({ type: "reset-step" });
    this.stepLog = [];
    for (const logged of kept) this.emitInStep(logged.chunk, logged.modelCallId);
  }

  private closeModelCall(): void {
    const call = this.current;
    if (call === undefined) return;
    for (const [kind, id] of call.open) {
      this.emitInStep({ type: `${kind}-end`, id }, call.modelCallId);
    }
    call.open.clear();
    this.current = undefined;
  }

  private startStep(): void {
    this.out.push({ type: "start-step" });
    this.stepOpen = true;
    this.stepLog = [];
  }

  private finishStep(): void {
    this.out.push({ type: "finish-step" });
    this.stepOpen = false;
    this.stepLog = [];
  }

  private emitInStep(chunk: UIMessageChunk, modelCallId?: string): void {
    const isPart = chunk.type.startsWith("tool-") || chunk.type.startsWith("text-");
    if (isPart && !this.stepOpen) this.startStep();
    this.out.push(chunk);
    if (this.stepOpen) this.stepLog.push({ chunk, modelCallId });
  }

  private endRun(
    event: Extract<
      SessionEvent["event"],
      { type: "run.completed" } | { type: "run.failed" } | { type: "run.cancelled" }
    >,
  ): void {
    this.closeModelCall();
    if (event.type === "run.completed" && !this.rootTextShown && event.payload.text !== "") {
      // `run.delta`s are transient: a reader can miss every one of them (a
      // deltas consumer that could not be read in time, a stream past its
      // retention), and then the run would end with no text at all. The
      // durable `run.completed` carries the answer: send it as one text part.
      const id = `${event.payload.runId}:completed:text`;
      this.emitInStep({ type: "text-start", id });
      this.emitInStep({ type: "text-delta", id, delta: event.payload.text });
      this.emitInStep({ type: "text-end", id });
    }
    if (this.stepOpen) this.finishStep();
    this.done = true;
    if (event.type === "run.completed") {
      this.out.push({
        type: "finish",
        finishReason: "stop",
        messageMetadata: { usage: event.payload.usage },
      });
    } else if (event.type === "run.failed") {
      this.out.push({
        type: "error",
        errorText: `The run failed (${event.payload.code}): ${event.payload.message}`,
      });
    } else {
      this.out.push({
        type: "abort",
        ...(event.payload.reason === undefined ? {} : { reason: event.payload.reason }),
      });
    }
  }

  private subagentEvent(
    event: Extract<
      SessionEvent["event"],
      { type: "subagent.started" } | { type: "subagent.completed" }
    >,
    toolActorIdOfEvent: string,
  ): void {
    const subagent = splitActor(event.payload.subagent).id;
    if (event.type === "subagent.started") {
      const parent = this.tools?.delegatingCall(toolActorIdOfEvent);
      if (parent === undefined) return;
      this.tree?.addSubagent(subagent);
      this.tools?.markDelegation(toolActorIdOfEvent, subagent);
      const view: SubagentView = {
        sessionId: subagent,
        toolCallId: parent,
        agent: event.payload.agent,
        task: event.payload.task,
        status: "running",
        texts: new Map(),
        final: undefined,
      };
      this.subagentViews.set(subagent, view);
      this.emitSubagent(view);
      return;
    }
    const view = this.subagentViews.get(subagent);
    if (view === undefined) return;
    view.status = "completed";
    view.final = event.payload.text;
    this.emitSubagent(view);
  }

  private subagentDelta(
    subagent: string,
    delta: {
      modelCallId?: string | undefined;
      attempt: number;
      kind: string;
      text: string;
      index?: number | undefined;
    },
  ): void {
    const view = this.subagentViews.get(subagent);
    if (view === undefined || delta.kind !== "text") return;
    const key = delta.modelCallId ?? "model";
    let entry = view.texts.get(key);
    if (entry === undefined || delta.attempt > entry.attempt) {
      entry = { attempt: delta.attempt, lastIndex: -1, text: "" };
      view.texts.set(key, entry);
    }
    if (delta.attempt < entry.attempt) return;
    if (delta.index !== undefined) {
      if (delta.index <= entry.lastIndex) return;
      entry.lastIndex = delta.index;
    }
    entry.text += delta.text;
    this.emitSubagent(view);
  }

  private subagentEnded(subagent: string, type: string): void {
    const view = this.subagentViews.get(subagent);
    if (view === undefined || view.status !== "running") return;
    view.status =
      type === "run.completed" ? "completed" : type === "run.failed" ? "failed" : "cancelled";
    this.emitSubagent(view);
  }

  private emitSubagent(view: SubagentView): void {
    const text = view.final ?? [...view.texts.values()].map((entry) => entry.text).join("\n\n");
    this.emitInStep({
      type: "data-subagent",
      id: `subagent:${view.sessionId}`,
      data: {
        sessionId: view.sessionId,
        toolCallId: view.toolCallId,
        ...(view.agent === undefined ? {} : { agent: view.agent }),
        task: view.task,
        status: view.status,
        text,
      },
    });
  }

  private questionEvent(
    event: Extract<
      SessionEvent["event"],
      { type: "question.asked" } | { type: "question.answered" }
    >,
    actor: { readonly kind: string; readonly id: string },
  ): void {
    const tree = this.tree;
    if (tree === undefined) return;
    if (event.type === "question.asked") {
      const owner = event.payload.sessionId ?? this.sessionId;
      if (!tree.hasSession(owner) || !tree.hasRun(owner, event.payload.runId)) return;
      const data: Record<string, unknown> = {
        questionId: event.payload.questionId,
        sessionId: this.sessionId,
        ...(owner === this.sessionId ? {} : { subagentSessionId: owner }),
        text: event.payload.text,
        ...(event.payload.choices === undefined ? {} : { choices: event.payload.choices }),
        status: "open",
      };
      const id = `question:${approvalIdOf(owner, event.payload.questionId)}`;
      this.questions.set(id, data);
      this.emitInStep({ type: "data-question", id, data });
      return;
    }
    const owner = actor.kind === "session" ? actor.id : this.sessionId;
    const id = `question:${approvalIdOf(owner, event.payload.questionId)}`;
    const asked = this.questions.get(id);
    if (asked === undefined) return;
    const data = { ...asked, status: "answered", answer: event.payload.text };
    this.questions.set(id, data);
    this.emitInStep({ type: "data-question", id, data });
  }

  private toolProgressOrCall(sessionEvent: SessionEvent, toolActor: string): void {
    const { event } = sessionEvent;
    if (event.type !== "tool.progress") {
      if (this.tools?.owns(toolActor, event) !== true) return;
      // A tool call starts only after the model call that asked for it ended.
      this.closeModelCall();
      this.tools.push(toolActor, event);
      return;
    }
    const owner = this.tree?.toolOwner(toolActor, event.payload.runId, event.payload.toolCallId);
    if (owner === undefined) return;
    const id = uiToolCallId(this.sessionId, owner, event.payload.toolCallId);
    const last = this.progressIndex.get(id) ?? -1;
    if (event.payload.index <= last) return;
    this.progressIndex.set(id, event.payload.index);
    this.emitInStep({
      type: "data-tool-progress",
      id: `progress:${id}`,
      data: {
        toolCallId: id,
        tool: event.payload.tool,
        progress: event.payload.progress,
        ...(event.payload.total === undefined ? {} : { total: event.payload.total }),
        ...(event.payload.message === undefined ? {} : { message: event.payload.message }),
      },
    });
  }
}
