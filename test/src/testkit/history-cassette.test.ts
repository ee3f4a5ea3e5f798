/**
 * A conversation of a deployment becomes a test: `exportCassette` renders
 * every model request of the session's runs again, as the host did, and
 * records it with the answer the run journaled; a second deployment whose
 * agent's model is that cassette replays the conversation with no model.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModel } from "ai";
import { defineAgent, defineTool, type AgentDefinition } from "@troupe/agents";
import {
  callTool,
  createTestDeployment,
  lastUserText,
  ModelCassette,
  reply,
  scriptedModel,
} from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testRunMarker } from "../harness/test-run-marker.js";

const lookupOrder = defineTool({
  name: "lookup_order",
  description: "Looks an order up.",
  inputSchema: z.object({ orderId: z.string() }),
  effectClass: "read",
  execute: ({ orderId }) => Promise.resolve({ orderId, status: "shipped" }),
});

function supportAgent(model: LanguageModel): AgentDefinition {
  return defineAgent({
    name: "support",
    instructions: "Answer questions about orders.",
    model,
    tools: [lookupOrder],
  });
}

/** The "production" model: looks an order up when asked, then reports it. */
const production = scriptedModel(({ messages }) => {
  const last = messages.at(-1);
  if (last?.role === "tool")
    return reply(
      `Order A1: ${JSON.stringify(last.content).includes("shipped") ? "shipped" : "unknown"}.`,
    );
  const text = lastUserText(messages) ?? "";
  return text.includes("A1")
    ? callTool("lookup_order", { orderId: "A1" })
    : reply(`You said: ${text}`);
});

describe("a recorded conversation as a model cassette", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "troupe-history-cassette-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("exportCassette records each model request of the conversation; a deployment on the cassette replays it, and another message fails with cassette_mismatch", async () => {
    const file = join(folder, "support.json");
    const answers: string[] = [];
    {
      await using recorded = await createTestDeployment({
        agents: supportAgent(production),
        prefix: "hcrec",
        servers: { dataDirPrefix: testRunMarker() },
      });
      for (const text of ["Where is order A1?", "thanks"]) {
        const outcome = await recorded.sendAndWait("conv-1", text);
        if (outcome.status !== "completed") throw new Error(`run ${outcome.status}`);
        answers.push(outcome.text);
      }
      const report = await recorded.exportCassette("conv-1", file);
      // The tool call, the answer after the tool result, the second turn.
      expect(report).toEqual({ file, calls: 3, skipped: [] });
    }
    expect(answers).toEqual(["Order A1: shipped.", "You said: thanks"]);
    const stored = JSON.parse(await readFile(file, "utf8")) as {
      entries: { request: { prompt: { role: string }[] } }[];
    };
    expect(
      stored.entries.map((entry) => entry.request.prompt.map((message) => message.role)),
    ).toEqual([
      ["system", "user"],
      ["system", "user", "assistant", "tool"],
      ["system", "user", "assistant", "tool", "assistant", "user"],
    ]);

    const cassette = await ModelCassette.open({ file, mode: "replay" });
    await using replayed = await createTestDeployment({
      agents: supportAgent(cassette.model()),
      prefix: "hcplay",
      servers: { dataDirPrefix: testRunMarker() },
    });
    const again: string[] = [];
    for (const text of ["Where is order A1?", "thanks"]) {
      const outcome = await replayed.sendAndWait("conv-2", text);
      if (outcome.status !== "completed") throw new Error(`run ${outcome.status}`);
      again.push(outcome.text);
    }
    expect(again).toEqual(answers);
    const other = await replayed.sendAndWait("conv-2", "and order B2?");
    expect(other).toMatchObject({ status: "failed", code: "cassette_mismatch" });
  });
});
