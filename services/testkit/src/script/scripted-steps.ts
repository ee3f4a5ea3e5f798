import {
  ScriptedModel,
  type ScriptedRequest,
  type ScriptedStep,
  type ScriptedToolCall,
} from "@troupe/agents";

/**
 * A step of a test script: what the model answers on one call. As
 * `ScriptedStep` of `@troupe/agents`, except that a tool call may leave out
 * its `toolCallId` ({@link scriptedModel} gives it one).
 *
 * Shape: `{ text?, reasoning?, toolCalls?: { toolName, input, toolCallId? }[], usage?, chunkDelayMs?, error?, finishReason? }`.
 */
export type TestStep = Omit<ScriptedStep, "toolCalls"> & {
  readonly toolCalls?: readonly (Omit<ScriptedToolCall, "toolCallId"> & {
    readonly toolCallId?: string;
  })[];
};

/**
 * A model step that answers with text (streamed word by word) and ends the run.
 *
 * @param text - the answer.
 * @param options - any other field of a step (`reasoning`, `usage`, `chunkDelayMs`, …).
 * @returns the step.
 * @example reply("25 °C is 77 °F.")
 */
export function reply(text: string, options: Omit<TestStep, "text"> = {}): TestStep {
  return { ...options, text };
}

/**
 * A model step that calls one tool; the run executes it (or asks for
 * approval, by the tool's policy) and calls the model again with its result.
 *
 * @param toolName - the tool's name (`defineTool({ name })`).
 * @param input - its arguments: an object (sent as JSON) or a JSON string.
 * @param options - `toolCallId` (default `<toolName>-<n>`, n counting the
 *   session's model calls from 0, so ids are unique within a session), `text`
 *   said before the call.
 * @returns the step.
 * @example callTool("convert_temperature", { value: 25, unit: "C" })
 */
export function callTool(
  toolName: string,
  input: Record<string, unknown> | string,
  options: { readonly toolCallId?: string; readonly text?: string } = {},
): TestStep {
  return {
    ...(options.text === undefined ? {} : { text: options.text }),
    toolCalls: [
      {
        toolName,
        input,
        ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
      },
    ],
  };
}

/** A step computed from the call it answers (e.g. from the tool results in `messages`). */
export type TestStepFunction = (request: ScriptedRequest) => TestStep | Promise<TestStep>;

/**
 * A test script: the steps every session plays in order (a session's n-th model
 * call gets `steps[n]`; a step may be a {@link TestStepFunction}), or one
 * function of the request for every call.
 */
export type TestScript = readonly (TestStep | TestStepFunction)[] | TestStepFunction;

/**
 * A deterministic model for an agent under test (`defineAgent({ model })`):
 * a `ScriptedModel` of `@troupe/agents` that plays `script` **per session**.
 * Each session (a subagent's `sub-…` session too) starts at `steps[0]`; a
 * retry of a model call (a provider error, a host restart) plays the same step
 * again, so retries do not shift the script. A session that makes more calls
 * than there are steps gets a non-retryable model error naming the session and
 * the step count: its run fails with `model_error` and that message.
 *
 * Tool calls without a `toolCallId` get `<toolName>-<n>` (n = the session's
 * model call, from 0).
 *
 * @param script - the steps (see {@link reply}, {@link callTool}; each may be a
 *   function of the request, `{ messages, callIndex, toolNames, troupe }`), or
 *   one function for every call.
 * @param options - `modelId` (default `"test-script"`).
 * @returns the model; pass it as `defineAgent({ model })`.
 * @example
 * ```ts
 * const model = scriptedModel([
 *   callTool("convert_temperature", { value: 25, unit: "C" }),
 *   reply("25 °C is 77 °F."),
 * ]);
 * ```
 */
export function scriptedModel(
  script: TestScript,
  options: { readonly modelId?: string } = {},
): ScriptedModel {
  /** Per session: model call key (`<runId>.m<index>`) → its step index. */
  const calls = new Map<string, Map<string, number>>();
  const stepIndex = (request: ScriptedRequest): { sessionId: string; index: number } => {
    const troupe = request.troupe ?? {};
    const sessionId = typeof troupe["sessionId"] === "string" ? troupe["sessionId"] : "";
    const callKey = `${String(troupe["runId"])}.m${String(troupe["modelCallIndex"])}`;
    let ofSession = calls.get(sessionId);
    if (ofSession === undefined) calls.set(sessionId, (ofSession = new Map<string, number>()));
    let index = ofSession.get(callKey);
    if (index === undefined) ofSession.set(callKey, (index = ofSession.size));
    return { sessionId, index };
  };
  return new ScriptedModel(
    async (request) => {
      const { sessionId, index } = stepIndex(request);
      let step: TestStep | TestStepFunction | undefined;
      if (typeof script === "function") {
        step = script;
      } else {
        step = script[index];
        if (step === undefined) {
          return {
            error: {
              message: `scriptedModel: session ${sessionId} made model call ${index + 1}, but the script has ${script.length} step(s)`,
              retryable: false,
            },
          };
        }
      }
      return withToolCallIds(typeof step === "function" ? await step(request) : step, index);
    },
    { modelId: options.modelId ?? "test-script" },
  );
}

function withToolCallIds(step: TestStep, callIndex: number): ScriptedStep {
  if (step.toolCalls === undefined) return step as ScriptedStep;
  return {
    ...step,
    toolCalls: step.toolCalls.map((call, position) => ({
      ...call,
      toolCallId:
        call.toolCallId ??
        `${call.toolName}-${callIndex}${step.toolCalls!.length > 1 ? `-${position}` : ""}`,
    })),
  };
}
