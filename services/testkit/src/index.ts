/**
 * @troupe/testkit — write tests of Troupe agents in minutes, against real
 * servers, from any test runner (docs/decisions/0023).
 *
 * - {@link createTestDeployment}: real NATS JetStream and Redis (containers when
 *   a container runtime answers, local binaries otherwise), in-process hosts
 *   with your agents, a `TroupeClient`, and the helpers of
 *   {@link TestDeployment}: `sendAndWait`, `expectEvents`, `waitForApproval` /
 *   `approve` / `deny`, `waitForQuestion` / `answer`, `events`, and
 *   `clock.advance(ms)` for durable timers (a 24 h approval timeout in
 *   milliseconds; {@link TestClock}), and `exportHistory` for fixtures.
 * - `replayHistory` / `replayHistories` (from `@troupe/agents`) replay those
 *   fixtures offline; `formatHistory` / `parseHistory` write and read them.
 * - {@link scriptedModel}, {@link reply}, {@link callTool}: a deterministic model
 *   for the agent under test, played per session.
 * - {@link startTestServers}: just the two servers (what Troupe's own suites use).
 *
 * README.md has a complete example test.
 *
 * @example
 * ```ts
 * await using deployment = await createTestDeployment({ agents: myAgent });
 * const outcome = await deployment.sendAndWait("s1", "hello");
 * ```
 *
 * @packageDocumentation
 */
export {
  createTestDeployment,
  DEFAULT_TEST_TIMEOUT_MS,
  type TestDeploymentOptions,
} from "./deployment/create-test-deployment.js";
export type {
  TestDeployment,
  TestRunOutcome,
  TestSendOptions,
} from "./deployment/test-deployment.js";
export { TestClock } from "./clock/test-clock.js";
export {
  matchesPartially,
  type EventExpectation,
  type ExpectedEvent,
  type ExpectedEvents,
  type PartialDeep,
} from "./events/event-expectation.js";
export { EventsNotSeenError } from "./events/events-not-seen-error.js";
export type { PendingApproval, PendingQuestion, WaitOptions } from "./events/session-waits.js";
export {
  callTool,
  reply,
  scriptedModel,
  type TestScript,
  type TestStep,
  type TestStepFunction,
} from "./script/scripted-steps.js";
export {
  startTestServers,
  type TestServers,
  type TestServersOptions,
} from "./servers/start-test-servers.js";
export {
  natsTestImage,
  redisTestImage,
  startContainerTestServers,
  type ContainerTestServers,
  type ContainerTestServersOptions,
} from "./servers/start-container-test-servers.js";
export {
  startLocalTestServers,
  type LocalTestServers,
  type LocalTestServersOptions,
} from "./servers/start-local-test-servers.js";
export {
  containerRuntimeProbeTimeoutMs,
  isContainerRuntimeReachable,
  resolveTestServersProvider,
  testServersVariable,
  type TestServersProvider,
} from "./servers/test-servers-provider.js";
// Recorded histories: export with deployment.exportHistory, save with formatHistory,
// replay offline with replayHistory / replayHistories.
export {
  formatHistoryReplayReport,
  replayHistories,
  replayHistory,
  type AgentHistoryReplayReport,
  type AgentVersionComparison,
  type HistoriesReplayReport,
  type HistoryFileReplay,
  type ReplayHistoryOptions,
} from "@troupe/agents";
export { formatHistory, parseHistory, type TroupeHistory } from "@troupe/protocol";
// Written by tests too: the scripted model's request and the client's outcome types.
export { lastUserText, type ScriptedRequest, type ScriptedStep } from "@troupe/agents";
export type { CommandOutcome, RunOutcome, SessionEvent } from "@troupe/client";
// Model cassettes: record a test's model calls once, replay them offline.
export {
  ModelCassette,
  CassetteMismatchError,
  CassetteMissingError,
  type CassetteMode,
  type ModelCassetteOptions,
} from "@troupe/agents/internal";
// A recorded conversation as a cassette (what `troupe history export --cassette` writes).
export {
  writeHistoryCassette,
  type HistoryCassetteOptions,
  type HistoryCassetteReport,
} from "@troupe/admin";
// Evaluations: a dataset, the agent under test, scorers; results as JSON and a table.
export {
  runEval,
  type EvalCase,
  type EvalCaseResult,
  type EvalReport,
  type RunEvalOptions,
} from "./evals/run-eval.js";
export {
  contains,
  exact,
  judge,
  toolCalledWith,
  type EvalToolCall,
  type Score,
  type Scorer,
  type ScorerInput,
} from "./evals/scorers.js";
