import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CassetteMismatchError } from "./cassette-mismatch-error.js";
import { cassetteRequest, requestKey } from "./cassette-request.js";
import { ModelCassette } from "./model-cassette.js";
import { fromStored, toStored } from "./stored-value.js";

const prompt = (text: string): LanguageModelV4CallOptions => ({
  prompt: [
    { role: "system", content: "Be brief." },
    { role: "user", content: [{ type: "text", text }] },
  ],
});

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

/** A model that streams `answer:<text>` and counts its calls. */
function fakeModel(): LanguageModelV4 & { calls: number } {
  const model = {
    specificationVersion: "v4" as const,
    provider: "fake",
    modelId: "fake-1",
    supportedUrls: {},
    calls: 0,
    doGenerate(options: LanguageModelV4CallOptions) {
      model.calls += 1;
      const text = JSON.stringify(options.prompt).length.toString();
      return Promise.resolve({
        content: [{ type: "text" as const, text }],
        finishReason: { unified: "stop" as const, raw: "stop" },
        usage,
        warnings: [],
        response: { timestamp: new Date(1_000), id: "g1" },
      });
    },
    doStream(options: LanguageModelV4CallOptions) {
      model.calls += 1;
      const last = options.prompt.at(-1);
      const text =
        last?.role === "user" && last.content[0]?.type === "text" ? last.content[0].text : "";
      const parts: LanguageModelV4StreamPart[] = [
        { type: "response-metadata", id: "r1", timestamp: new Date(2_000) },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: `answer:${text}` },
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ];
      return Promise.resolve({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      });
    },
  };
  return model;
}

async function readAll(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe("stored values", () => {
  it("round-trip dates and bytes through JSON, and drop undefined fields", () => {
    const value = {
      at: new Date(5),
      bytes: new Uint8Array([1, 2, 255]),
      none: undefined,
      list: [1, "a"],
    };
    const stored = JSON.parse(JSON.stringify(toStored(value))) as unknown;
    expect(stored).toEqual({
      at: { $date: "1970-01-01T00:00:00.005Z" },
      bytes: { $bytes: "AQL/" },
      list: [1, "a"],
    });
    expect(fromStored(stored)).toEqual({
      at: new Date(5),
      bytes: new Uint8Array([1, 2, 255]),
      list: [1, "a"],
    });
  });
});

describe("request keys", () => {
  it("ignore the abort signal, headers and Troupe's call metadata, not the prompt or settings", () => {
    const base = prompt("hi");
    const key = requestKey(cassetteRequest(base));
    expect(
      requestKey(
        cassetteRequest({
          ...base,
          abortSignal: new AbortController().signal,
          headers: { "x-a": "1" },
          providerOptions: { troupe: { sessionId: "other", runId: "r9" } },
        }),
      ),
    ).toBe(key);
    expect(requestKey(cassetteRequest(prompt("hi!")))).not.toBe(key);
    expect(requestKey(cassetteRequest({ ...base, temperature: 0.2 }))).not.toBe(key);
    expect(
      requestKey(cassetteRequest({ ...base, providerOptions: { openai: { user: "u" } } })),
    ).not.toBe(key);
  });
});

describe("ModelCassette", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "troupe-cassette-unit-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("records streams and generations, and replays them without the model, in order per request", async () => {
    const file = join(folder, "a.json");
    const inner = fakeModel();
    const recording = await ModelCassette.open({ file, mode: "record" });
    const recorder = recording.model(inner);
    const first = await readAll((await recorder.doStream(prompt("one"))).stream);
    await readAll((await recorder.doStream(prompt("two"))).stream);
    const generated = await recorder.doGenerate(prompt("three"));
    expect(inner.calls).toBe(3);
    await recording.save();

    const replay = await ModelCassette.open({ file, mode: "replay" });
    const player = replay.model();
    expect([player.provider, player.modelId]).toEqual(["fake", "fake-1"]);
    const again = await readAll((await player.doStream(prompt("one"))).stream);
    expect(again).toEqual(first);
    expect(again[0]).toMatchObject({ timestamp: new Date(2_000) });
    expect(await player.doGenerate(prompt("three"))).toEqual(generated);
    // The same request again replays the (last) recording of it.
    expect(await readAll((await player.doStream(prompt("one"))).stream)).toEqual(first);
    expect(inner.calls).toBe(3);
  });

  it("refuses a request it has no recording of, with a diff against the closest one", async () => {
    const file = join(folder, "b.json");
    const recording = await ModelCassette.open({ file, mode: "record" });
    await readAll((await recording.model(fakeModel()).doStream(prompt("what time is it?"))).stream);
    await recording.save();
    const player = (await ModelCassette.open({ file, mode: "replay" })).model();
    const refused = player.doStream(prompt("what day is it?"));
    await expect(refused).rejects.toThrow(CassetteMismatchError);
    await expect(refused).rejects.toThrow(/- what time is it\?\n\+ what day is it\?/);
    await expect(player.doGenerate(prompt("what time is it?"))).rejects.toThrow(
      CassetteMismatchError,
    );
  });

  it("needs the real model to record", async () => {
    const recording = await ModelCassette.open({ file: join(folder, "c.json"), mode: "record" });
    expect(() => recording.model()).toThrow(/needs the real model/);
  });
});
