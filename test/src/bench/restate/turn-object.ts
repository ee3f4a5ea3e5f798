import * as restate from "@restatedev/restate-sdk";

/** The virtual object's name: its handlers are called at `POST /turn/<session id>/<handler>` on the ingress. */
export const turnObjectName = "turn";

/** The two handlers: `plain` is our plain turn, `oneTool` our one-tool turn. */
export type RestateTurnKind = "plain" | "oneTool";

/** What a session keeps in the object's state after each turn (one `ctx.set`). */
export interface TurnSessionState {
  /** Turns completed in this session. */
  readonly turns: number;
  /** The last user message. */
  readonly lastUserText: string;
  /** The last answer. */
  readonly lastAnswer: string;
}

/** A scripted model step: a tool call or a final answer, as small as our scripted model's. */
export type ScriptedModelStep =
  | { readonly type: "tool-call"; readonly toolName: string; readonly input: { key: string } }
  | { readonly type: "text"; readonly text: string };

/**
 * The scripted model of the Restate turn: no latency, a small JSON answer, like
 * the bench agent's scripted demo model (`test/src/fixtures/bench-agent.ts`).
 * First call of a one-tool turn: a `lookup` tool call; otherwise the answer.
 *
 * @param text - the user message.
 * @param withTool - whether the turn calls a tool and this is its first model call.
 * @returns the step.
 */
export function scriptedModelStep(text: string, withTool: boolean): ScriptedModelStep {
  return withTool
    ? { type: "tool-call", toolName: "lookup", input: { key: "k" } }
    : { type: "text", text: `You said: ${text}` };
}

/**
 * The scripted tool: returns at once, with a small JSON result (the bench
 * agent's `lookup` tool answers the same).
 *
 * @param input - the tool call's input.
 * @returns the result.
 */
export function scriptedToolResult(input: { key: string }): { key: string; value: number } {
  return { key: input.key, value: input.key.length };
}

/**
 * The next session state after a turn.
 *
 * @param previous - the state before the turn (undefined in a new session).
 * @param text - the user message.
 * @param answer - the answer.
 * @returns the state to write.
 */
export function nextSessionState(
  previous: TurnSessionState | null | undefined,
  text: string,
  answer: string,
): TurnSessionState {
  return { turns: (previous?.turns ?? 0) + 1, lastUserText: text, lastAnswer: answer };
}

function answerOf(step: ScriptedModelStep): string {
  return step.type === "text" ? step.text : "";
}

/**
 * The `turn` virtual object (Restate TypeScript SDK), keyed by session id. Each
 * handler's steps are `ctx.run` (journaled by Restate before the handler goes on)
 * and it ends with one `ctx.set` of the session state:
 *
 * - `plain`: one `ctx.run` (model call) + the state write;
 * - `oneTool`: three `ctx.run` (model call 1 → a tool call, tool execute, model
 *   call 2 → the answer) + the state write.
 *
 * Input: the user message (JSON string); output: the answer (JSON string).
 */
export const turnObject = restate.object({
  name: turnObjectName,
  handlers: {
    plain: async (ctx: restate.ObjectContext, text: string): Promise<string> => {
      const step = await ctx.run("model call", () => scriptedModelStep(text, false));
      const answer = answerOf(step);
      const previous = await ctx.get<TurnSessionState>("session");
      ctx.set("session", nextSessionState(previous, text, answer));
      return answer;
    },
    oneTool: async (ctx: restate.ObjectContext, text: string): Promise<string> => {
      const call = await ctx.run("model call 1", () => scriptedModelStep(text, true));
      const input = call.type === "tool-call" ? call.input : { key: "" };
      const result = await ctx.run("tool execute", () => scriptedToolResult(input));
      const step = await ctx.run("model call 2", () =>
        scriptedModelStep(`${text} ${JSON.stringify(result)}`, false),
      );
      const answer = answerOf(step);
      const previous = await ctx.get<TurnSessionState>("session");
      ctx.set("session", nextSessionState(previous, text, answer));
      return answer;
    },
  },
});
