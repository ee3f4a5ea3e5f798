import type { ToolExecutionStatus, ToolStart, ActorInput } from "@troupe/protocol";

/** The call a tool call actor runs, as `tool.start` described it (without the session id). */
export type ToolCallRequest = Omit<ToolStart, "sessionId">;

/**
 * The id of the durable timer a tool call actor arms while it waits for an
 * approval (xstate's `xstate.after.<delay>.<machine id>.<state>` of the
 * `awaitingApproval` state's `approvalTimeout`): armed when the approval is
 * requested, cancelled when it is settled or the call is cancelled. So the
 * members of the shards' timer sets with this id are the approvals pending —
 * what `troupe.approvals.pending` counts (docs/decisions/0037).
 */
export const APPROVAL_TIMER_ID = "xstate.after.approvalTimeout.tool.awaitingApproval";

/** How a call's approval was settled: the first `tool.approve` / `tool.deny`, or the timeout. */
export type ApprovalDecision = "approved" | "denied" | "timed_out";

/** Context of {@link toolCallMachine}. */
export interface ToolCallContext {
  /** The id of the actor's address (`tool/<toolActorId>`). */
  readonly actorId: string;
  /**
   * The session the call belongs to, from `tool.start`; undefined before it.
   * The host publishes the actor's events on this session's subjects.
   */
  readonly sessionId: string | undefined;
  /** The call, from `tool.start`; undefined before it. */
  readonly call: ToolCallRequest | undefined;
  /** `tool.cancel` arrived: the run no longer waits for this call's result. */
  readonly cancelRequested: boolean;
  /** How the execution ended, once it did (undefined when cancelled before starting). */
  readonly status: ToolExecutionStatus | undefined;
  /**
   * How the approval the call waited for was settled; undefined while it waits
   * and for a call that needed none. Later settlements are answered with it.
   */
  readonly approval?: ApprovalDecision | undefined;
  /** For a subagent call that delegated: the id of the subagent's session (`sub-<toolActorId>`). */
  readonly childSessionId?: string | undefined;
}

/**
 * The context of a tool call actor that has seen nothing yet.
 *
 * @param input - the actor's address; its id is `toolActorId(sessionId, runId, toolCallId)`.
 * @returns the initial context.
 */
export function initialToolCallContext(input: ActorInput): ToolCallContext {
  return {
    actorId: input.address.id,
    sessionId: undefined,
    call: undefined,
    cancelRequested: false,
    status: undefined,
  };
}
