// Shapes of the gateway's answers the console reads (the gateway's HTTP API contract).

export interface PendingApproval {
  sessionId: string;
  ownerSessionId: string;
  toolCallId: string;
  tool: string;
  arguments: unknown;
  runId: string;
  sequence: number;
  requestedAt: string;
}

export interface SessionSummary {
  sessionId: string;
  state: "running" | "idle" | "closed";
  agent?: string;
  lastRunId?: string;
  lastEventAt: string;
  lastSequence: number;
  pendingApprovals: number;
  openQuestions: number;
}

export interface ChartTransition {
  event: string;
  targets: string[];
  guards: string[];
}

export interface ChartState {
  id: string;
  key: string;
  type: string;
  initial?: string;
  description?: string;
  states: ChartState[];
  transitions: ChartTransition[];
}

export interface MachineChart {
  kind: string;
  machineId: string;
  root: ChartState;
}

export interface SessionActor {
  address: string;
  kind: string;
  id: string;
  role: "session" | "subagent" | "run" | "tool" | "other";
  label?: string;
  firstSequence: number;
  lastSequence: number;
  lastEventType: string;
  machine?: string;
  exists: boolean;
  generation?: number;
  stateValue: unknown;
  status?: string;
  activeStates: string[];
}

export interface SessionActors {
  sessionId: string;
  actors: SessionActor[];
  truncated: boolean;
}

export interface SessionEventEnvelope {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  meta: { actor: string; seq: number; timestampMs: number; transient?: true };
}
