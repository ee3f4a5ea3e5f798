import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from "ai";

/**
 * The chat state `@ai-sdk/react` keeps in React state, kept in memory
 * instead: `ai` 7 exports only the framework-free `AbstractChat`, which takes
 * a `ChatState`; this is the smallest one. As the React binding does, every
 * change replaces the array and a replaced message is stored as a snapshot
 * (`structuredClone`), so a message read earlier is never mutated.
 */
class MemoryChatState<MESSAGE extends UIMessage> implements ChatState<MESSAGE> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;

  constructor(public messages: MESSAGE[]) {}

  pushMessage = (message: MESSAGE): void => {
    this.messages = [...this.messages, message];
  };

  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
  };

  replaceMessage = (index: number, message: MESSAGE): void => {
    this.messages = [
      ...this.messages.slice(0, index),
      this.snapshot(message),
      ...this.messages.slice(index + 1),
    ];
  };

  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK's chat (`AbstractChat` of `ai` 7, the class `useChat` drives)
 * without React: the real request, stream-processing, resume and approval
 * logic, with the messages in memory (issue #16, Must show #1).
 */
export class HeadlessChat<MESSAGE extends UIMessage = UIMessage> extends AbstractChat<MESSAGE> {
  constructor(init: ChatInit<MESSAGE>) {
    const { messages, ...rest } = init;
    super({ ...rest, state: new MemoryChatState<MESSAGE>(messages ?? []) });
  }
}

/** The text parts of a message, joined. */
export function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
}
