import type { SessionEvent } from "@troupe/client";
import type { UIMessageChunk } from "ai";
import type { RunTree } from "./run-tree.js";
import { approvalIdOf, uiToolCallId } from "./ui-ids.js";

/** A tool call of the run tree as the stream shows it. */
interface ToolCallView {
  readonly uiId: string;
  readonly owner: string;
  readonly tool: string;
  readonly approvalId: string;
  inputShown: boolean;
  state: "running" | "awaiting" | "settled";
  /** The subagent session this call delegated to. */
  delegation: string | undefined;
}

type ToolEvent = SessionEvent["event"];

/**
 * The tool calls of a run tree as dynamic tool parts (decision
 * 0027; the client knows no tool types, so every part is `dynamic`):
 *
 * | event                                   | chunks                                                                 |
 * | --------------------------------------- | ---------------------------------------------------------------------- |
 * | `tool.approval_requested`               | `tool-input-available` (input: `arguments`), `tool-approval-request`   |
 * | `tool.approval_settled` approved        | `tool-approval-response` (`approved: true`)                            |
 * | `tool.approval_settled` denied/timed out | `tool-approval-response` (`approved: false`), `tool-output-denied`    |
 * | `tool.started`                          | `tool-input-available` (input: `arguments`) unless shown               |
 * | `tool.completed`                        | `tool-output-available` (`output`, else `content`, parsed if JSON)     |
 * | `tool.failed`, `tool.outcome_unknown`   | `tool-output-error` (not after a denial)                               |
 *
 * A later settlement of a settled approval (`alreadySettled`) changes nothing.
 */
export class ToolParts {
  private readonly views = new Map<string, ToolCallView>();
  private readonly approvals = new Set<string>();

  /**
   * @param tree - ownership of the run tree.
   * @param emit - sends a chunk (in the open step).
   */
  constructor(
    private readonly tree: RunTree,
    private readonly emit: (chunk: UIMessageChunk) => void,
  ) {}

  /** `approvalId`s of every `tool-approval-request` emitted. */
  get requestedApprovalIds(): ReadonlySet<string> {
    return this.approvals;
  }

  /**
   * Whether tool call actor `tool/<actorId>` belongs to the run tree (learning
   * it from the event's run and call ids).
   */
  owns(actorId: string, event: ToolEvent): boolean {
    if (this.views.has(actorId)) return true;
    const payload = event.payload as { runId?: unknown; toolCallId?: unknown; tool?: unknown };
    if (typeof payload.runId !== "string" || typeof payload.toolCallId !== "string") return false;
    const owner = this.tree.toolOwner(actorId, payload.runId, payload.toolCallId);
    if (owner === undefined) return false;
    this.views.set(actorId, {
      uiId: uiToolCallId(this.tree.sessionId, owner, payload.toolCallId),
      owner,
      tool: typeof payload.tool === "string" ? payload.tool : "tool",
      approvalId: approvalIdOf(owner, payload.toolCallId),
      inputShown: false,
      state: "running",
      delegation: undefined,
    });
    return true;
  }

  /** The UI tool call id of tool call actor `actorId`, when it is of the tree. */
  delegatingCall(actorId: string): string | undefined {
    return this.views.get(actorId)?.uiId;
  }

  /** Marks tool call actor `actorId` as the delegation to subagent session `subagent`. */
  markDelegation(actorId: string, subagent: string): void {
    const view = this.views.get(actorId);
    if (view !== undefined) view.delegation = subagent;
  }

  /** `approvalId`s of the calls that wait for their approval now. */
  awaitingApprovalIds(): Set<string> {
    const ids = new Set<string>();
    for (const view of this.views.values()) if (view.state === "awaiting") ids.add(view.approvalId);
    return ids;
  }

  /** See `RunStreamTranslator.awaitingApprovalsOnly`. */
  awaitingApprovalsOnly(): boolean {
    const waiting = new Set<string>();
    for (const view of this.views.values()) {
      if (view.state === "awaiting") waiting.add(view.owner);
    }
    if (waiting.size === 0) return false;
    for (const view of this.views.values()) {
      if (view.state !== "running") continue;
      if (view.delegation !== undefined && waiting.has(view.delegation)) continue;
      return false;
    }
    return true;
  }

  /** Takes a `tool.*` event of an owned actor (see {@link ToolParts.owns}). */
  push(actorId: string, event: ToolEvent): void {
    const view = this.views.get(actorId);
    if (view === undefined || view.state === "settled") return;
    switch (event.type) {
      case "tool.approval_requested":
        this.showInput(view, event.payload.arguments);
        view.state = "awaiting";
        this.approvals.add(view.approvalId);
        this.emit({
          type: "tool-approval-request",
          approvalId: view.approvalId,
          toolCallId: view.uiId,
        });
        break;
      case "tool.approval_settled": {
        if (event.payload.alreadySettled === true || view.state !== "awaiting") break;
        const approved = event.payload.decision === "approved";
        this.emit({ type: "tool-approval-response", approvalId: view.approvalId, approved });
        if (approved) {
          view.state = "running";
        } else {
          view.state = "settled";
          this.emit({ type: "tool-output-denied", toolCallId: view.uiId });
        }
        break;
      }
      case "tool.started":
        this.showInput(view, event.payload.arguments);
        view.state = "running";
        break;
      case "tool.completed":
        this.showInput(view, undefined);
        view.state = "settled";
        this.emit({
          type: "tool-output-available",
          toolCallId: view.uiId,
          output: event.payload.output ?? parsedContent(event.payload.content),
          dynamic: true,
        });
        break;
      case "tool.failed":
      case "tool.outcome_unknown":
        this.showInput(view, undefined);
        view.state = "settled";
        this.emit({
          type: "tool-output-error",
          toolCallId: view.uiId,
          errorText:
            event.type === "tool.failed"
              ? event.payload.error.message
              : `The outcome of this call is unknown${event.payload.reason === undefined ? "" : `: ${event.payload.reason}`}.`,
          dynamic: true,
        });
        break;
      default:
        break;
    }
  }

  private showInput(view: ToolCallView, input: unknown): void {
    if (view.inputShown) return;
    view.inputShown = true;
    this.emit({
      type: "tool-input-available",
      toolCallId: view.uiId,
      toolName: view.tool,
      input: input ?? {},
      dynamic: true,
      ...(view.owner === this.tree.sessionId
        ? {}
        : { title: `${view.tool} (subagent ${view.owner})` }),
    });
  }
}

/** A tool's content as the model read it: parsed when it is JSON (tools that return data), else the text. */
function parsedContent(content: string | undefined): unknown {
  if (content === undefined) return null;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}
