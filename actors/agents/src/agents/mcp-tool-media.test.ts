import { fileURLToPath } from "node:url";
import type { MediaRef, ToolExecuteOutput } from "@troupe/protocol";
import type { EffectContext } from "@troupe/runtime";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { AgentRegistry } from "./agent-registry.js";
import { buildModelPrompt } from "./build-model-prompt.js";
import { defineAgent } from "./define-agent.js";
import type { TranscriptEntry } from "./transcript-entry.js";
import {
  mediaDigest,
  type MediaDescription,
  type MediaStore,
  loadPromptMedia,
  InMemoryIdempotencyRecordStore,
  createToolExecuteHandler,
  InMemoryToolResultStore,
  McpToolCatalog,
} from "@troupe/tools/internal";

// An MCP tool that answers with an image part, against a real MCP server
// process over stdio (fixtures/image-mcp-server.mjs); no NATS or Redis (issue #19).

const fixture = fileURLToPath(new URL("./fixtures/image-mcp-server.mjs", import.meta.url));
const agent = defineAgent({
  name: "analyst",
  instructions: "Explain charts.",
  mcpServers: { fx: { command: process.execPath, args: [fixture] } },
});
let catalog: McpToolCatalog | undefined;
afterEach(async () => {
  await catalog?.close();
});

/** A media store over a map: what was put, by digest. */
function mapStore(): MediaStore & { objects: Map<string, Uint8Array> } {
  const objects = new Map<string, Uint8Array>();
  return {
    objects,
    put: (bytes: Uint8Array, description: MediaDescription) => {
      const digest = mediaDigest(bytes);
      objects.set(digest, bytes);
      return Promise.resolve({ digest, mediaType: description.mediaType, size: bytes.length });
    },
    get: (ref: MediaRef) => Promise.resolve(objects.get(ref.digest) as Uint8Array),
  };
}

/** Runs `fx__chart` through the `tool.execute` handler with the given image size (bytes). */
async function callChart(store: MediaStore, bytes: number, maxMediaBytes?: number) {
  catalog = new McpToolCatalog({ logger: pino({ level: "silent" }) });
  const agents = new AgentRegistry([agent], { mcp: catalog });
  catalog.start(agents.all);
  await agents.ready("analyst");
  const handler = createToolExecuteHandler({
    toolsOf: (name) => agents.get(name).tools,
    idempotencyRecords: new InMemoryIdempotencyRecordStore(),
    results: new InMemoryToolResultStore(),
    media: store,
    ...(maxMediaBytes === undefined ? {} : { mediaLimits: { maxMediaBytes } }),
  });
  const context: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "tool", id: "s1" },
    effectId: "c1.x",
    hostRun: () => Promise.resolve(1),
  };
  const input = {
    sessionId: "s1",
    runId: "r1",
    toolCallId: "c1",
    toolName: "fx__chart",
    input: JSON.stringify({ bytes }),
    agent: "analyst",
  };
  return (await handler(input, context)) as ToolExecuteOutput;
}

describe("MCP image content (issue #19)", () => {
  it("is stored in the media store; the tool result holds its reference, no base64, and the model call gets the image", async () => {
    const store = mapStore();
    const output = await callChart(store, 64);
    const png = [...store.objects.values()][0];
    expect(png?.length).toBe(64);
    const ref: MediaRef = { digest: mediaDigest(png!), mediaType: "image/png", size: 64 };
    expect(output.status).toBe("succeeded");
    expect(output.media).toEqual([ref]);
    expect(JSON.parse(output.content)).toEqual({
      content: [
        { type: "text", text: "Sales by month" },
        { type: "image", ...ref },
      ],
    });
    expect(output.content).not.toContain(Buffer.from(png!).toString("base64"));

    const entries: TranscriptEntry[] = [
      { role: "user", text: "Explain the chart", messageId: "m1" },
      {
        role: "assistant",
        text: "",
        runId: "r1",
        toolCalls: [{ toolCallId: "c1", toolName: "fx__chart", input: '{"bytes":64}' }],
      },
      {
        role: "tool",
        runId: "r1",
        toolCallId: "c1",
        toolName: "fx__chart",
        status: "succeeded",
        content: output.content,
        media: output.media ?? [],
      },
    ];
    const prompt = buildModelPrompt(agent, entries, await loadPromptMedia(entries, store));
    expect(prompt.messages[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "fx__chart",
          output: {
            type: "content",
            value: [
              { type: "text", text: output.content },
              { type: "file", data: { type: "data", data: png }, mediaType: "image/png" },
            ],
          },
        },
      ],
    });
  }, 20_000);

  it("an image over maxMediaBytes fails the call with the refusal, and nothing is stored", async () => {
    const store = mapStore();
    const output = await callChart(store, 64, 32);
    expect(output.status).toBe("failed");
    expect(output.content).toBe(
      'Tool "fx__chart" failed: its result holds media that was refused (The media is 64 bytes; the limit is 32 bytes.)',
    );
    expect(output.media).toBeUndefined();
    expect(store.objects.size).toBe(0);
  }, 20_000);
});
