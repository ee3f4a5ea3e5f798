import type {
  PriorityClass,
  ActorInput,
  AgentResolveOutput,
  MediaRef,
  SessionPolicy,
  ToolPolicyOverrides,
} from "@troupe/protocol";
import type { SessionEvent, UserMessageEvent } from "./session-events.js";
import type { SessionForkContext } from "./session-fork-context.js";

/** Policy of a new session for a message that arrives during a run. */
export const DEFAULT_SESSION_POLICY: SessionPolicy = "enqueue";
/** Model calls per run of a new session (past it, one more call without tools). */
export const DEFAULT_MAX_MODEL_CALLS = 50;
/**
 * How many client message ids a session remembers for duplicate detection: the
 * last 100 admitted. A repeat of an older id is admitted again. (1 000 before
 * decision 0016: the list is in every snapshot write, so it made message 500 of a
 * session cost more than message 10; a client retries within seconds, and
 * JetStream's `Nats-Msg-Id` window drops quick repeats before the session.)
 */
export const ADMITTED_CLIENT_MESSAGE_IDS_LIMIT = 100;

/** An admitted message waiting for a run (or steered into the active run). */
export interface QueuedMessage {
  /** Admission order, 1-based: breaks ties between priority entries. */
  readonly seq: number;
  /** Envelope id of the message that carried the text. */
  readonly messageId: string;
  readonly text: string;
  /** Media references of a `user.message` (docs/decisions/0045); absent when it had none. */
  readonly attachments?: readonly MediaRef[];
  /**
   * Runs before plain queued messages: an interrupting message, or a steer the
   * active run did not take.
   */
  readonly priority: boolean;
  /**
   * Scheduling class of the run the message starts (`user.message` `priority`,
   * docs/decisions/0057); absent = `default`. Orders work on the hosts only,
   * never this queue.
   */
  readonly priorityClass?: PriorityClass;
  /**
   * Set on a steer: it already had its verdict (`command.settled` `applied`, when
   * the active run received it), so dropping it later (the session closed before
   * the turn it carried over to) emits no second verdict (exactly one
   * verdict per command). Absent on admitted messages.
   */
  readonly answered?: true;
}

/**
 * The settings of an agent, as the session's `agent.resolve` effect reported
 * them (journaled as its result): `{ agent?, policy, maxModelCalls }`, `agent`
 * absent for the host's default agent.
 */
export type ResolvedAgent = AgentResolveOutput & { readonly agent?: string };

/**
 * A `user.message` that waits for its agent's `agent.resolve` result, and the
 * messages that arrived after it, which wait behind it in order.
 */
export interface PendingAgent {
  /** Id of the `agent.resolve` request (`agent.<n>`). */
  readonly effectId: string;
  readonly message: UserMessageEvent;
  /** Messages that arrived since, in arrival order; taken once the result is in. */
  readonly waiting: readonly SessionEvent[];
}

/**
 * The parent of a subagent's session, from its first `user.message`'s
 * metadata (`parentSessionId`, `parentRunId`, `parentToolActor`).
 */
export interface SessionParent {
  /** The session that delegated, whose subjects carry this session's events. */
  readonly sessionId: string;
  /** The tool call actor (`tool/<id>`) told `subagent.finished` when a run ends. */
  readonly toolActor: string;
  /**
   * The delegating run of `sessionId` (docs/decisions/0041): its `run` spend budget
   * counts this session's model calls. Absent in a snapshot written before the
   * field existed: that session's calls get no parent-run budget.
   */
  readonly runId?: string | undefined;
}

/** Context of {@link sessionMachine}; small and bounded (the transcript lives outside). */
export interface SessionContext extends SessionForkContext {
  /** The id of the actor's address (`session/<sessionId>`). */
  readonly sessionId: string;
  /** Whether `session.created` was emitted (first admitted user message). */
  readonly created: boolean;
  /** Agent named by the first user message; undefined = the host's default agent. */
  readonly agent: string | undefined;
  readonly policy: SessionPolicy;
  /** Model for later runs; undefined = the agent's model. */
  readonly model: string | undefined;
  readonly maxModelCalls: number;
  /** Client message ids admitted so far, oldest first, at most {@link ADMITTED_CLIENT_MESSAGE_IDS_LIMIT}. */
  readonly admittedClientMessageIds: readonly string[];
  /** Messages admitted so far (feeds {@link QueuedMessage.seq}). */
  readonly admittedCount: number;
  /** Messages waiting for a run, in the order they will run. */
  readonly queue: readonly QueuedMessage[];
  /** The run in progress (`r<n>`), if any. */
  readonly activeRunId: string | undefined;
  /** Texts sent to the active run with `run.steer`, in order. */
  readonly steered: readonly QueuedMessage[];
  /** Whether `run.cancel` was already sent to the active run. */
  readonly cancelRequested: boolean;
  /** Runs started so far; the next run is `r<runCount + 1>`. */
  readonly runCount: number;
  /** Entries in the transcript log; the next entry goes at this index. */
  readonly transcriptLength: number;
  /**
   * Settings set by `session.configure` (`"policy"`, `"maxModelCalls"`): the
   * agent's defaults, applied at the first user message, never override them.
   */
  readonly configured: readonly ("policy" | "maxModelCalls")[];
  /**
   * Agents resolved so far, one entry per name (at most the host's agents and
   * the default): the session adopts its first message's agent's settings, and
   * a later message naming an agent not in here is checked first. Only
   * journaled `agent.resolve` results fill it, so a replay needs no registry.
   */
  readonly resolvedAgents: readonly ResolvedAgent[];
  /** `agent.resolve` requests made so far (the next id is `agent.<agentResolutions + 1>`). */
  readonly agentResolutions: number;
  /** Set in state `resolving`: the message waiting for its agent and those behind it. */
  readonly pendingAgent?: PendingAgent | undefined;
  /**
   * Tool patterns `session.configure` asked to ask for or deny (accumulated,
   * never removed: a session's tool policy only gets safer); undefined = none.
   * Each run gets them in `run.start`.
   */
  readonly toolPolicy?: ToolPolicyOverrides | undefined;
  /**
   * Set for a subagent's session (from the first `user.message`'s metadata):
   * see {@link SessionParent}.
   */
  readonly parent?: SessionParent | undefined;
}

/**
 * The context of a session that has seen nothing yet.
 *
 * @param input - the actor's address; its id is the session id.
 * @returns the initial context.
 */
export function initialSessionContext(input: ActorInput): SessionContext {
  return {
    sessionId: input.address.id,
    created: false,
    agent: undefined,
    policy: DEFAULT_SESSION_POLICY,
    model: undefined,
    maxModelCalls: DEFAULT_MAX_MODEL_CALLS,
    admittedClientMessageIds: [],
    admittedCount: 0,
    queue: [],
    activeRunId: undefined,
    steered: [],
    cancelRequested: false,
    runCount: 0,
    transcriptLength: 0,
    configured: [],
    resolvedAgents: [],
    agentResolutions: 0,
  };
}

/**
 * Puts priority entries before plain ones, each group in admission order.
 *
 * @param queue - the current queue.
 * @param entries - entries to add.
 * @returns the new queue.
 */
export function insertIntoQueue(
  queue: readonly QueuedMessage[],
  entries: readonly QueuedMessage[],
): QueuedMessage[] {
  const all = [...queue, ...entries];
  return [
    ...all.filter((entry) => entry.priority).sort((a, b) => a.seq - b.seq),
    ...all.filter((entry) => !entry.priority).sort((a, b) => a.seq - b.seq),
  ];
}
