import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { diffArrays } from "diff";
import { CassetteMismatchError, CassetteMissingError } from "./cassette-mismatch-error.js";
import { cassetteRequest, requestKey, requestLines } from "./cassette-request.js";
import { fromStored, toStored } from "./stored-value.js";

/** How a cassette runs: against the real model, writing what it says, or from the file alone. */
export type CassetteMode = "record" | "replay";

/** Options of {@link ModelCassette.open}. */
export interface ModelCassetteOptions {
  /** The cassette file (JSON), e.g. `test/cassettes/support.json`; written by `save()` when recording. */
  readonly file: string;
  /**
   * `record` calls the model and keeps every request and answer; `replay`
   * (default) answers from the file with no network. Default: the
   * `TROUPE_CASSETTE` environment variable (`record` or `replay`), else `replay`.
   */
  readonly mode?: CassetteMode;
  /**
   * Replay pacing: `recorded` waits between stream parts as long as the model
   * did when recording; `none` (default) sends them at once.
   */
  readonly timing?: "recorded" | "none";
}

/** One recorded model call. */
interface CassetteEntry {
  /** {@link requestKey} of `request`. */
  readonly key: string;
  /** The request, as {@link cassetteRequest} keeps it (stored JSON). */
  readonly request: Record<string, unknown>;
  /** A streamed answer: each part with the milliseconds since the call started. */
  readonly stream?: ReadonlyArray<{ readonly atMs: number; readonly part: unknown }>;
  /** The stream result's `response` (headers), stored JSON. */
  readonly response?: unknown;
  /** A generated (not streamed) answer, stored JSON. */
  readonly generate?: unknown;
}

/** The file: `{ version: 1, provider, modelId, entries }`. */
interface CassetteFile {
  readonly version: 1;
  readonly provider: string;
  readonly modelId: string;
  readonly entries: CassetteEntry[];
}

/**
 * Recorded model traffic for tests ("cassettes"): record every call a test
 * makes to a model once (the request after the agent rendered it, the answer
 * stream with its chunk timing), then replay it byte for byte with no
 * provider and no network. Works with any AI SDK language model (v4
 * specification), the OpenAI-compatible path included: the cassette wraps the
 * model instance and gives the agent the wrapper.
 *
 * A request is matched by the SHA-256 of its canonical JSON (prompt, tools,
 * settings; not the abort signal or headers); the same request made again
 * replays the next recording of it, then the last. A request with no
 * recording fails the call with {@link CassetteMismatchError}, whose message
 * is a line diff against the closest recorded request.
 *
 * @example
 * ```ts
 * const cassette = await ModelCassette.open({ file: "test/cassettes/support.json" });
 * const agent = defineAgent({ name: "support", instructions: "…", model: cassette.model(realModel) });
 * // … run the test …
 * await cassette.save(); // writes the file when recording; nothing when replaying
 * ```
 * @see https://ai-sdk.dev/docs/ai-sdk-core/middleware (the model interface wrapped here)
 */
export class ModelCassette {
  readonly #file: string;
  readonly #mode: CassetteMode;
  readonly #timing: "recorded" | "none";
  readonly #recorded: CassetteFile | undefined;
  readonly #entries: CassetteEntry[] = [];
  readonly #replayed = new Map<string, number>();
  #model: { provider: string; modelId: string } | undefined;

  private constructor(options: ModelCassetteOptions, mode: CassetteMode, recorded?: CassetteFile) {
    this.#file = options.file;
    this.#mode = mode;
    this.#timing = options.timing ?? "none";
    this.#recorded = recorded;
  }

  /**
   * Opens a cassette: reads the file to replay, or starts an empty recording.
   *
   * @param options - see {@link ModelCassetteOptions}.
   * @throws CassetteMissingError when replaying a file that does not exist;
   *   Error when the file is not a cassette, or `TROUPE_CASSETTE` holds something else.
   */
  static async open(options: ModelCassetteOptions): Promise<ModelCassette> {
    const fromEnvironment = process.env.TROUPE_CASSETTE;
    if (
      options.mode === undefined &&
      fromEnvironment !== undefined &&
      fromEnvironment !== "record" &&
      fromEnvironment !== "replay"
    ) {
      throw new Error(`TROUPE_CASSETTE must be record or replay, not "${fromEnvironment}"`);
    }
    const mode = options.mode ?? (fromEnvironment as CassetteMode | undefined) ?? "replay";
    if (mode === "record") return new ModelCassette(options, mode);
    let text: string;
    try {
      text = await readFile(options.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new CassetteMissingError(options.file);
      }
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<CassetteFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.entries)) {
      throw new Error(`${options.file} is not a cassette (version 1 with entries)`);
    }
    return new ModelCassette(options, mode, parsed as CassetteFile);
  }

  /** `record` or `replay`. */
  get mode(): CassetteMode {
    return this.#mode;
  }

  /** Model calls recorded so far (recording) or in the file (replaying). */
  get calls(): number {
    return this.#mode === "record" ? this.#entries.length : (this.#recorded?.entries.length ?? 0);
  }

  /**
   * The model to give the agent.
   *
   * @param inner - the real model, an AI SDK language model instance of the v4
   *   specification (what `ai` 7's providers and `resolveModel` of a spec
   *   give); required to record, ignored when replaying.
   * @returns a language model that records through `inner`, or replays.
   * @throws Error when recording without `inner`, or with a model of an older specification.
   */
  model(model?: Exclude<LanguageModel, string>): LanguageModelV4 {
    if (this.#mode === "record") {
      if (model === undefined) throw new Error("recording a cassette needs the real model");
      if (model.specificationVersion !== "v4") {
        throw new Error(
          `a cassette records AI SDK v4 language models; ${model.provider} ${model.modelId} is ${model.specificationVersion}`,
        );
      }
      const inner = model;
      this.#model = { provider: inner.provider, modelId: inner.modelId };
      return {
        specificationVersion: "v4",
        provider: inner.provider,
        modelId: inner.modelId,
        supportedUrls: inner.supportedUrls,
        doGenerate: (options) => this.#recordGenerate(inner, options),
        doStream: (options) => this.#recordStream(inner, options),
      };
    }
    return {
      specificationVersion: "v4",
      provider: this.#recorded?.provider ?? model?.provider ?? "troupe.cassette",
      modelId: this.#recorded?.modelId ?? model?.modelId ?? "cassette",
      supportedUrls: {},
      // Async, so a missing recording is a rejected call, as a provider's error would be.
      doGenerate: (options) => new Promise((resolve) => resolve(this.#replayGenerate(options))),
      doStream: (options) => new Promise((resolve) => resolve(this.#replayStream(options))),
    };
  }

  /**
   * Writes the recording to the file (its folder created), when recording.
   *
   * @returns the file written, or undefined when replaying.
   */
  async save(): Promise<string | undefined> {
    if (this.#mode !== "record") return undefined;
    const file: CassetteFile = {
      version: 1,
      provider: this.#model?.provider ?? "unknown",
      modelId: this.#model?.modelId ?? "unknown",
      entries: this.#entries,
    };
    await mkdir(dirname(this.#file), { recursive: true });
    await writeFile(this.#file, `${JSON.stringify(file, null, 2)}\n`);
    return this.#file;
  }

  async #recordGenerate(
    inner: LanguageModelV4,
    options: LanguageModelV4CallOptions,
  ): Promise<LanguageModelV4GenerateResult> {
    const request = cassetteRequest(options);
    const result = await inner.doGenerate(options);
    this.#entries.push({ key: requestKey(request), request, generate: toStored(result) });
    return result;
  }

  async #recordStream(
    inner: LanguageModelV4,
    options: LanguageModelV4CallOptions,
  ): Promise<LanguageModelV4StreamResult> {
    const request = cassetteRequest(options);
    const startedAtMs = performance.now();
    const result = await inner.doStream(options);
    const parts: Array<{ atMs: number; part: unknown }> = [];
    // Kept once the stream ended (or failed): a call cut short records what came.
    this.#entries.push({
      key: requestKey(request),
      request,
      stream: parts,
      ...(result.response === undefined ? {} : { response: toStored(result.response) }),
    });
    const recording = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
      transform(part, controller) {
        parts.push({
          atMs: Math.round((performance.now() - startedAtMs) * 10) / 10,
          part: toStored(part),
        });
        controller.enqueue(part);
      },
    });
    return { ...result, stream: result.stream.pipeThrough(recording) };
  }

  #replayGenerate(options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult {
    const entry = this.#find(options, "generate");
    return fromStored(entry.generate) as LanguageModelV4GenerateResult;
  }

  #replayStream(options: LanguageModelV4CallOptions): LanguageModelV4StreamResult {
    const entry = this.#find(options, "stream");
    const parts = entry.stream ?? [];
    const paced = this.#timing === "recorded";
    const signal = options.abortSignal;
    let index = 0;
    let previousAtMs = 0;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async pull(controller) {
        const next = parts[index];
        if (next === undefined) {
          controller.close();
          return;
        }
        index += 1;
        if (paced && next.atMs > previousAtMs) {
          await sleep(next.atMs - previousAtMs, undefined, signal === undefined ? {} : { signal });
        }
        previousAtMs = next.atMs;
        controller.enqueue(fromStored(next.part) as LanguageModelV4StreamPart);
      },
    });
    return {
      stream,
      ...(entry.response === undefined
        ? {}
        : { response: fromStored(entry.response) as LanguageModelV4StreamResult["response"] }),
    };
  }

  /** The recording of a request: the next one of its key, then the last. */
  #find(options: LanguageModelV4CallOptions, kind: "stream" | "generate"): CassetteEntry {
    const request = cassetteRequest(options);
    const key = requestKey(request);
    const entries = (this.#recorded?.entries ?? []).filter(
      (entry) => entry.key === key && entry[kind] !== undefined,
    );
    if (entries.length === 0) throw new CassetteMismatchError(this.#file, this.#diff(request));
    const used = this.#replayed.get(key) ?? 0;
    this.#replayed.set(key, used + 1);
    return entries[Math.min(used, entries.length - 1)]!;
  }

  /** A line diff of `request` against the recorded request that shares the most lines with it. */
  #diff(request: Record<string, unknown>): string {
    const now = requestLines(request);
    let best: { changes: ReturnType<typeof diffArrays<string>>; common: number } | undefined;
    for (const entry of this.#recorded?.entries ?? []) {
      const changes = diffArrays(requestLines(entry.request), now);
      const common = changes
        .filter((change) => change.added !== true && change.removed !== true)
        .reduce((sum, change) => sum + change.count, 0);
      if (best === undefined || common > best.common) best = { changes, common };
    }
    if (best === undefined) return "(the cassette holds no recording)";
    const lines: string[] = [];
    for (const change of best.changes) {
      const mark = change.added === true ? "+ " : change.removed === true ? "- " : "  ";
      const values = change.value;
      if (mark === "  " && values.length > 4) {
        // Two lines of context on each side of a change.
        lines.push(...values.slice(0, 2).map((line) => `  ${line}`), "  …");
        lines.push(...values.slice(-2).map((line) => `  ${line}`));
      } else lines.push(...values.map((line) => `${mark}${line}`));
    }
    return ["--- recorded", "+++ now", ...lines].join("\n");
  }
}
