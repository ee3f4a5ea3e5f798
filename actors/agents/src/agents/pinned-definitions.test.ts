import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { ScriptedModel } from "@troupe/models";
import { defineTool } from "@troupe/tools";
import type { EffectContext } from "@troupe/runtime";
import { TroupeError, type ModelCallOutput } from "@troupe/protocol";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { canonicalJson } from "@troupe/models/internal";
import { definitionRecordOf } from "./definition-record.js";
import { InMemoryAgentDefinitionStore } from "./definition-store.js";
import { InvalidAgentError } from "./invalid-agent-error.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { DefinitionUnavailableError, PinnedDefinitions } from "./pinned-definitions.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

const model = new ScriptedModel([{ text: "ok" }]);

const payV1 = defineTool({
  name: "pay",
  description: "Pay an amount.",
  inputSchema: z.object({ amount: z.number() }),
  effectClass: "non_idempotent_write",
  execute: () => Promise.resolve("paid"),
});
const payV2 = defineTool({
  name: "pay",
  description: "Pay an amount in a currency.",
  inputSchema: z.object({ amount: z.number(), currency: z.string() }),
  effectClass: "non_idempotent_write",
  execute: () => Promise.resolve("paid"),
});

const v1 = defineAgent({
  name: "cashier",
  version: "1",
  instructions: "Pay what the user asks.",
  model,
  tools: [payV1],
  toolPolicy: { ask: ["pay"] },
});
// A rolling deploy changed the instructions and the tool's schema, not the version.
const v1b = defineAgent({
  name: "cashier",
  version: "1",
  instructions: "Pay what the user asks, in euros.",
  model,
  tools: [payV2],
  toolPolicy: { allow: ["pay"] },
});
// A new version that moves runs of version 1 onto it.
const v2 = defineAgent({
  name: "cashier",
  version: "2",
  migrate: { from: ["1"] },
  instructions: "Pay what the user asks; always name the currency.",
  model,
  tools: [payV2],
});

describe("agent definition records", () => {
  it("hash the same definition to the same value, and any change of the request's parts to another", async () => {
    const again = defineAgent({
      name: "cashier",
      version: "1",
      instructions: "Pay what the user asks.",
      model,
      tools: [payV1],
      toolPolicy: { ask: ["pay"] },
    });
    const [a, b, changed] = await Promise.all(
      [v1, again, v1b].map((agent) => definitionRecordOf(agent, {})),
    );
    expect(a!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b!.hash).toBe(a!.hash);
    expect(changed!.hash).not.toBe(a!.hash);
    expect(a!.record).toMatchObject({
      name: "cashier",
      version: "1",
      instructions: "Pay what the user asks.",
      models: [{ object: "troupe.scripted:script" }],
      tools: [
        {
          name: "pay",
          description: "Pay an amount.",
          effectClass: "non_idempotent_write",
          inputSchema: { type: "object", required: ["amount"] },
        },
      ],
      toolPolicy: { allow: [], ask: ["pay"], deny: [] },
    });
    const limits = await definitionRecordOf(
      defineAgent({ name: "cashier", instructions: "x", limits: { modelIdleTimeoutMs: 5 } }),
      {},
    );
    expect(limits.record.models).toEqual([null]);
    expect(limits.record.limits.modelIdleTimeoutMs).toBe(5);
  });

  it("canonical JSON sorts keys at every level and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"e":0,"f":1}]},"b":1}',
    );
  });
});

describe("PinnedDefinitions.resolve", () => {
  it("pins a first call to the served definition and writes its record to the store", async () => {
    const store = new InMemoryAgentDefinitionStore();
    const resolved = await new PinnedDefinitions(store, {}).resolve(v1, undefined);
    const { hash } = await definitionRecordOf(v1, {});
    expect(resolved.agent).toBe(v1);
    expect(resolved.used).toEqual({ hash, version: "1" });
    expect((await store.load("cashier", hash))?.instructions).toBe("Pay what the user asks.");
  });

  it("serves a run pinned to an older definition from its record: instructions, tool schema and policy", async () => {
    const store = new InMemoryAgentDefinitionStore();
    const pin = (await new PinnedDefinitions(store, {}).resolve(v1, undefined)).used;
    // Another host, serving the changed definition, reads the same store.
    const resolved = await new PinnedDefinitions(store, {}).resolve(v1b, pin);
    expect(resolved.used).toEqual(pin);
    expect(resolved.agent.instructions).toBe("Pay what the user asks.");
    expect(resolved.agent.tools["pay"]?.description).toBe("Pay an amount.");
    expect(resolved.agent.tools["pay"]?.inputJsonSchema).toMatchObject({
      properties: { amount: { type: "number" } },
    });
    expect(resolved.agent.tools["pay"]?.inputJsonSchema).not.toHaveProperty("properties.currency");
    expect(resolved.agent.toolPolicy.ask).toEqual(["pay"]);
    expect(resolved.agent.model).toBe(model);
    // A new run on that host pins the served definition.
    const fresh = await new PinnedDefinitions(store, {}).resolve(v1b, undefined);
    expect(fresh.agent).toBe(v1b);
    expect(fresh.used.hash).not.toBe(pin.hash);
  });

  it("moves a run of a version that `migrate.from` names onto the served definition, reporting migratedFrom", async () => {
    const store = new InMemoryAgentDefinitionStore();
    const pin = (await new PinnedDefinitions(store, {}).resolve(v1, undefined)).used;
    const resolved = await new PinnedDefinitions(store, {}).resolve(v2, pin);
    expect(resolved.agent).toBe(v2);
    expect(resolved.used).toEqual({
      hash: (await definitionRecordOf(v2, {})).hash,
      version: "2",
      migratedFrom: pin,
    });
  });

  it("refuses a pin whose record the store does not hold, or holds corrupted, with definition_unavailable", async () => {
    const store = new InMemoryAgentDefinitionStore();
    const pinned = new PinnedDefinitions(store, {});
    const missing = { hash: "ab".repeat(32), version: "0" };
    const error = await pinned.resolve(v1b, missing).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DefinitionUnavailableError);
    expect((error as TroupeError).code).toBe("definition_unavailable");
    expect((error as TroupeError).retryable).toBe(false);
    expect((error as Error).message).toContain(
      'pinned to definition abababababab (version 0) of agent "cashier"',
    );
    // A record stored under another hash than its own is not served.
    const real = await definitionRecordOf(v1, {});
    await store.save({ record: real.record, hash: missing.hash });
    await expect(pinned.resolve(v1b, missing)).rejects.toThrow(DefinitionUnavailableError);
  });

  it("an unreachable store fails the call as retryable effect_failed, and the next call writes the record", async () => {
    const records = new InMemoryAgentDefinitionStore();
    let down = true;
    const flaky = {
      save: (hashed: Parameters<InMemoryAgentDefinitionStore["save"]>[0]) =>
        down ? Promise.reject(new Error("connect ECONNREFUSED")) : records.save(hashed),
      load: (agent: string, hash: string) => records.load(agent, hash),
    };
    const pinned = new PinnedDefinitions(flaky, {});
    const error = await pinned.resolve(v1, undefined).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "effect_failed", retryable: true });
    expect((error as Error).message).toContain('definition record of agent "cashier"');
    down = false;
    const { used } = await pinned.resolve(v1, undefined);
    expect(await records.load("cashier", used.hash)).toBeDefined();
  });

  it("refuses a pinned model object the served definition does not have", async () => {
    const store = new InMemoryAgentDefinitionStore();
    const other = new ScriptedModel([{ text: "x" }]);
    (other as { modelId: string }).modelId = "another";
    const pin = (
      await new PinnedDefinitions(store, {}).resolve(
        defineAgent({ name: "cashier", instructions: "old", model: other }),
        undefined,
      )
    ).used;
    await expect(new PinnedDefinitions(store, {}).resolve(v1b, pin)).rejects.toThrow(
      /its model troupe.scripted:another is a model object the served definition does not have/,
    );
  });
});

describe("defineAgent migrate", () => {
  it("needs a declared version and cannot name it", () => {
    expect(() => defineAgent({ name: "a", instructions: "x", migrate: { from: ["1"] } })).toThrow(
      InvalidAgentError,
    );
    expect(() =>
      defineAgent({ name: "a", instructions: "x", version: "2", migrate: { from: ["2"] } }),
    ).toThrow(/names the agent's own version "2"/);
    expect(() =>
      defineAgent({ name: "a", instructions: "x", version: "2", migrate: { from: ["1", "1"] } }),
    ).toThrow(/migrate\.from: names a version twice/);
    expect(
      defineAgent({ name: "a", instructions: "x", version: "2", migrate: { from: ["1"] } }).migrate,
    ).toEqual({ from: ["1"] });
  });
});

describe("the model.call handler under a pin", () => {
  it("sends the pinned instructions and tool schema, and reports the pin in its output", async () => {
    const requests: LanguageModelV4CallOptions[] = [];
    const scripted = new ScriptedModel(() => ({ text: "done" }));
    const recording: LanguageModelV4 = {
      specificationVersion: scripted.specificationVersion,
      provider: scripted.provider,
      modelId: scripted.modelId,
      supportedUrls: scripted.supportedUrls,
      doGenerate: (options) => scripted.doGenerate(options),
      doStream: (options) => {
        requests.push(options);
        return scripted.doStream(options);
      },
    };
    const old = defineAgent({
      name: "cashier",
      version: "1",
      instructions: "Pay what the user asks.",
      model: recording,
      tools: [payV1],
    });
    const changed = defineAgent({
      name: "cashier",
      version: "1",
      instructions: "Pay what the user asks, in euros.",
      model: recording,
      tools: [payV2],
    });
    const store = new InMemoryAgentDefinitionStore();
    const transcript = new InMemoryTranscriptReader();
    transcript.append("s1", { role: "user", text: "pay 5", messageId: "m1" });
    const handlerOf = (agent: typeof old) =>
      createModelCallHandler({
        agents: new AgentRegistry([agent]),
        transcript,
        env: {},
        publishDelta: () => undefined,
        definitions: store,
      });
    const context: EffectContext = {
      signal: new AbortController().signal,
      address: { kind: "run", id: "s1" },
      effectId: "r1.m1.a1",
      hostRun: () => Promise.resolve(1),
    };
    const input = {
      sessionId: "s1",
      runId: "r1",
      transcriptLength: 1,
      modelCallIndex: 1,
      retry: 1,
      withoutTools: false,
    };
    const first = (await handlerOf(old)(input, context)) as ModelCallOutput;
    const pinnedCall = (await handlerOf(changed)(
      { ...input, modelCallIndex: 2, definition: first.definition },
      context,
    )) as ModelCallOutput;
    const newRun = (await handlerOf(changed)(
      { ...input, runId: "r2" },
      context,
    )) as ModelCallOutput;
    const system = (options: LanguageModelV4CallOptions) =>
      options.prompt.find((message) => message.role === "system")?.content;
    const payProperties = (options: LanguageModelV4CallOptions) =>
      Object.keys(
        (
          options.tools?.find((tool) => tool.name === "pay") as
            { inputSchema: { properties: object } } | undefined
        )?.inputSchema.properties ?? {},
      );
    expect(requests.map(system)).toEqual([
      "Pay what the user asks.",
      "Pay what the user asks.",
      "Pay what the user asks, in euros.",
    ]);
    expect(requests.map(payProperties)).toEqual([["amount"], ["amount"], ["amount", "currency"]]);
    expect(pinnedCall.definition).toEqual(first.definition);
    expect(newRun.definition?.hash).not.toBe(first.definition?.hash);
  });
});
