import { sendMessage } from "@troupe/protocol";
import type { SessionStep } from "./session-step.js";
import { runAddressOf } from "./session-run-steps.js";

/**
 * `session.compact` (docs/capabilities/compaction.md): forwards it to the
 * session's run actor as `run.compact`, which makes the session's next model
 * call compact the transcript first. The transcript is only appended to by
 * the actor whose turn it is (the session while idle, the run while running),
 * so the compaction waits for a model call rather than appending on its own.
 */
export const forwardCompact: SessionStep = (context) => ({
  actions: [sendMessage({ to: runAddressOf(context.sessionId), type: "run.compact", payload: {} })],
});
