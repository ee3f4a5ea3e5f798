/** One server-sent event as a client reads it. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Reads a `text/event-stream` response event by event (per the WHATWG
 * server-sent events parsing rules: `field: value` lines, a blank line ends an
 * event, `:` lines are comments), keeping every comment seen.
 */
export class SseReader {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  #buffer = "";
  #done = false;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();

  /** @param response - a fetch response with an SSE body. */
  constructor(readonly response: Response) {
    if (response.body === null) throw new Error("the response has no body");
    this.#reader = response.body.getReader();
  }

  /** Whether the server ended (or cut) the stream. */
  get done(): boolean {
    return this.#done;
  }

  /**
   * Reads until `until` holds for the events so far, or the stream ends.
   *
   * @param until - condition over all events read.
   * @param timeoutMs - how long to read, in ms.
   * @returns the events read so far.
   * @throws when the time is up first.
   */
  async readUntil(until: (events: readonly SseEvent[]) => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (!until(this.events)) {
      if (this.#done) return this.events;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`SSE condition not met within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), left);
      });
      const chunk = await Promise.race([
        this.#reader.read().catch(() => ({ done: true as const, value: undefined })),
        timeout,
      ]);
      clearTimeout(timer);
      if (chunk === "timeout") {
        throw new Error(`SSE condition not met within ${timeoutMs} ms`);
      }
      if (chunk.done) this.#done = true;
      else this.#parse(this.#decoder.decode(chunk.value, { stream: true }));
    }
    return this.events;
  }

  /** Stops reading (the server sees the connection close). */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => undefined);
  }

  #parse(text: string): void {
    // Searches only the new text (and the "\n" before it) for the end of an event.
    let from = Math.max(0, this.#buffer.length - 1);
    this.#buffer += text;
    for (;;) {
      const end = this.#buffer.indexOf("\n\n", from);
      if (end < 0) return;
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      from = 0;
      let id: string | undefined;
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") id = value;
        else if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      if (data.length > 0) this.events.push({ id, event, data: data.join("\n") });
    }
  }
}
