import { Writable } from "node:stream";

/**
 * The terminal `troupe chat`'s readline writes to, muted while an answer
 * streams (docs/decisions/0018): keys typed then are still read (a line is queued when
 * Enter is pressed) but not echoed into the answer. When the prompt returns,
 * `prompt(true)` redraws the prompt with what was typed so far.
 *
 * While muted it reports an endless line width, so readline computes no line
 * wraps for the hidden text and never moves the cursor up into the answer
 * when it redraws. Writes pass through synchronously, in order with the
 * chat's own writes to the same stream.
 */
export class MutedOutput extends Writable {
  /** Whether readline's writes are dropped. */
  muted = false;

  /** @param target - the real terminal, e.g. `process.stdout`. */
  constructor(private readonly target: NodeJS.WriteStream) {
    super();
    target.on("resize", () => this.emit("resize"));
  }

  /** As the target's (readline reads it). */
  get isTTY(): boolean {
    return this.target.isTTY;
  }

  /** The target's width; `Infinity` while muted. */
  get columns(): number {
    return this.muted ? Infinity : this.target.columns;
  }

  /** The target's height. */
  get rows(): number {
    return this.target.rows;
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    if (!this.muted) this.target.write(chunk);
    callback();
  }
}
