/**
 * Model cassettes of the test kit: a test's model traffic recorded once from
 * the OpenAI-compatible path (a real HTTP server on loopback speaking the
 * chat-completions stream), replayed with the server gone, and a changed
 * instruction refused with a diff of the prompt.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineAgent, resolveModel } from "@troupe/agents";
import { CassetteMissingError, createTestDeployment, ModelCassette } from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  sendChunk,
  startHostileModelServer,
  startSse,
  type HostileModelServer,
} from "../support/hostile-model-server.js";

/** The provider's answer, in three chunks. */
const ANSWER_PARTS = ["The order ", "ships ", "on Monday."];

describe("a model cassette recorded from the OpenAI-compatible path", () => {
  let folder: string;
  let server: HostileModelServer;
  let file: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "troupe-cassette-"));
    file = join(folder, "support.json");
    server = await startHostileModelServer((response) => {
      startSse(response);
      sendChunk(response, { role: "assistant", content: ANSWER_PARTS[0] });
      for (const content of ANSWER_PARTS.slice(1)) sendChunk(response, { content });
      sendChunk(response, {}, "stop");
      response.end("data: [DONE]\n\n");
    });
  });

  afterAll(async () => {
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  const agentWith = (instructions: string, cassette: ModelCassette) =>
    defineAgent({
      name: "support",
      instructions,
      model: cassette.model(
        cassette.mode === "record"
          ? resolveModel(`openai-compatible:${server.baseURL}#local-model`)
          : undefined,
      ),
    });

  it("records the calls, replays them with no server, and refuses a changed instruction with a prompt diff", async () => {
    // Record: the real HTTP model answers, the cassette keeps request and stream.
    const recording = await ModelCassette.open({ file, mode: "record" });
    {
      await using deployment = await createTestDeployment({
        agents: agentWith("Answer in one sentence.", recording),
      });
      const outcome = await deployment.sendAndWait("s-1", "When does order 42 ship?");
      expect(outcome).toMatchObject({ status: "completed", text: ANSWER_PARTS.join("") });
    }
    expect(server.requestsFor("When does order 42 ship?")).toBe(1);
    expect(recording.calls).toBe(1);
    expect(await recording.save()).toBe(file);
    const saved = JSON.parse(await readFile(file, "utf8")) as {
      modelId: string;
      entries: Array<{ stream: Array<{ atMs: number; part: { type: string; delta?: string } }> }>;
    };
    expect(saved.modelId).toBe("local-model");
    const deltas = saved.entries[0]!.stream.filter((item) => item.part.type === "text-delta");
    expect(deltas.map((item) => item.part.delta)).toEqual(ANSWER_PARTS);
    // Chunk timing is kept, in order.
    const times = saved.entries[0]!.stream.map((item) => item.atMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // Replay with the server gone: the same answer, from the file alone (in
    // another session too: the key is the prompt, not Troupe's call metadata).
    await server.close();
    const replay = await ModelCassette.open({ file, mode: "replay", timing: "recorded" });
    {
      await using deployment = await createTestDeployment({
        agents: agentWith("Answer in one sentence.", replay),
      });
      const outcome = await deployment.sendAndWait("s-9", "When does order 42 ship?");
      expect(outcome).toMatchObject({ status: "completed", text: ANSWER_PARTS.join("") });

      // A changed instruction is a request the cassette never saw.
      const changed = await ModelCassette.open({ file, mode: "replay" });
      await using changedDeployment = await createTestDeployment({
        agents: agentWith("Answer in two sentences.", changed),
      });
      const failed = await changedDeployment.sendAndWait("s-2", "When does order 42 ship?");
      if (failed.status !== "failed")
        throw new Error(`expected a failed run, got ${failed.status}`);
      process.stderr.write(`cassette mismatch, as a test prints it:\n${failed.message}\n`);
      expect(failed.code).toBe("cassette_mismatch");
      expect(failed.message).toContain("- Answer in one sentence.");
      expect(failed.message).toContain("+ Answer in two sentences.");
      // The user's message is the same: a context line, not a change.
      expect(failed.message).toContain("  When does order 42 ship?");
      expect(failed.message).not.toContain("- When does order 42 ship?");
      expect(failed.message.split("\n").filter((line) => /^[-+] /.test(line))).toEqual([
        "- Answer in one sentence.",
        "+ Answer in two sentences.",
      ]);
    }
  }, 120_000);

  it("replaying a cassette that was never recorded says how to record it", async () => {
    await expect(
      ModelCassette.open({ file: join(folder, "missing.json"), mode: "replay" }),
    ).rejects.toThrow(CassetteMissingError);
    await expect(
      ModelCassette.open({ file: join(folder, "missing.json"), mode: "replay" }),
    ).rejects.toThrow(/TROUPE_CASSETTE=record/);
  });
});
