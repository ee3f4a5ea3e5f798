import type { BuiltinEventSchemas, PayloadOf } from "@troupe/protocol";

type RunDelta = PayloadOf<BuiltinEventSchemas, "run.delta">;

/** One chunk of the answer artifact: the text and whether it appends to what was sent before. */
export interface AnswerChunk {
  readonly text: string;
  /** `false`: the text replaces the artifact (the first chunk, or a new model call or attempt). */
  readonly append: boolean;
}

/**
 * Turns a run's text deltas (`run.delta`, kind `text`) into A2A artifact
 * chunks of the answer (docs/decisions/0026). The artifact holds the text of the latest
 * model call's latest attempt: a delta of a new model call or a retried
 * attempt replaces it (`append: false`), the next deltas of that attempt
 * append. A delta seen twice (same call, attempt and `index`, as after a
 * resume) is dropped. {@link AnswerStream.finish} gives the last chunk: an
 * empty append when the streamed text is the answer, else the whole answer as
 * a replacement, so the artifact always ends as `run.completed.text`.
 */
export class AnswerStream {
  private segment: string | undefined;
  private lastIndex = -1;
  private text = "";

  /**
   * @param delta - a `run.delta` payload of the task's run.
   * @returns the chunk to send, or `undefined` (not text, empty, or a repeat).
   */
  add(delta: RunDelta): AnswerChunk | undefined {
    if (delta.kind !== "text") return undefined;
    const segment = `${delta.modelCallId} ${delta.attempt}`;
    if (segment !== this.segment) {
      this.segment = segment;
      this.lastIndex = -1;
      if (delta.index !== undefined) this.lastIndex = delta.index;
      this.text = delta.text;
      return { text: delta.text, append: false };
    }
    if (delta.index !== undefined) {
      if (delta.index <= this.lastIndex) return undefined;
      this.lastIndex = delta.index;
    }
    if (delta.text === "") return undefined;
    this.text += delta.text;
    return { text: delta.text, append: true };
  }

  /**
   * @param answer - the run's final text (`run.completed.text`, or a cancelled run's partial text).
   * @returns the last chunk of the artifact.
   */
  finish(answer: string): AnswerChunk {
    if (this.segment !== undefined && this.text === answer) return { text: "", append: true };
    return { text: answer, append: false };
  }

  /** The artifact's text so far. */
  get streamed(): string {
    return this.text;
  }
}
