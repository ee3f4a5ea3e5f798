/**
 * Tools from `@modelcontextprotocol/server-everything` (npm) over stdio
 * (issue #15, Must show): its annotations map to the documented effect
 * classes (and an agent's per-tool override wins), its long-running tool's
 * `notifications/progress` arrive as `tool.progress` events of the session
 * with growing progress, and `troupe cancel` cancels a run whose call of that
 * tool is still running: the run ends `cancelled` long before the tool would
 * have ended, and the call's result is recorded.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AgentDefinition,
  defineAgent,
  type McpServerOptions,
  ObjectStoreMediaStore,
} from "@troupe/agents";
import { jetstream } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { McpToolCatalog } from "@troupe/agents/internal";
import { streamNames, type EventEnvelope } from "@troupe/protocol";
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { mcpTestAgent, packagedServer } from "../fixtures/mcp-agent.js";
import { runTroupe } from "../support/troupe-cli.js";
import { waitFor } from "../support/wait-for.js";

const everything = (): McpServerOptions =>
  packagedServer("@modelcontextprotocol/server-everything", ["stdio"]);

describe("MCP client: @modelcontextprotocol/server-everything over stdio", () => {
  let deployment: TestDeployment;
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "troupe-mcp-everything-"));
    deployment = await createTestDeployment({
      agents: mcpTestAgent({
        mcpServers: {
          everything: { ...everything(), tools: { "get-tiny-image": { maxResultBytes: 300 } } },
        },
        toolPolicy: { allow: ["everything__toggle-simulated-logging"] },
      }),
      prefix: "mcpevery",
      servers: { dataDirPrefix: testRunMarker() },
    });
  });

  afterAll(async () => {
    await deployment?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("annotations map to effect classes (readOnly → read, idempotent → idempotent_write, non-destructive → non_idempotent_write); an override wins", async () => {
    const agent: AgentDefinition = defineAgent({
      name: "classes",
      instructions: "-",
      model: "scripted",
      mcpServers: {
        everything: { ...everything(), tools: { "get-sum": { effectClass: "unclassified" } } },
      },
    });
    const catalog = new McpToolCatalog({ logger: pino({ level: "silent" }) });
    try {
      catalog.start([agent]);
      await catalog.ready(agent);
      const classes = Object.fromEntries(
        Object.entries(catalog.toolsOf(agent)).map(([name, tool]) => [name, tool.effectClass]),
      );
      expect(classes).toMatchObject({
        // readOnlyHint: true (with idempotentHint: true too)
        everything__echo: "read",
        "everything__trigger-long-running-operation": "read",
        // readOnlyHint: false, idempotentHint: true
        "everything__gzip-file-as-resource": "idempotent_write",
        // readOnlyHint: false, destructiveHint: false, idempotentHint: false
        "everything__toggle-simulated-logging": "non_idempotent_write",
        "everything__simulate-research-query": "non_idempotent_write",
        // readOnlyHint: true, overridden by the agent
        "everything__get-sum": "unclassified",
      });
    } finally {
      await catalog.close();
    }
  });

  it("a call's effect class shows on tool.started: echo runs as read, toggle-simulated-logging (allowed by policy) as non_idempotent_write", async () => {
    const outcome = await deployment.sendAndWait(
      "every-classes",
      [
        `/tool everything__echo ${JSON.stringify({ message: "ping" })}`,
        "/tool everything__toggle-simulated-logging {}",
      ].join("\n"),
    );
    expect(outcome.status).toBe("completed");
    expect(outcome.status === "completed" ? outcome.text : "").toContain(
      "everything__echo: Echo: ping",
    );
    const started = outcome.events
      .filter((event) => event.type === "tool.started")
      .map((event) => {
        const payload = event.payload as { tool: string; effectClass?: string };
        return [payload.tool, payload.effectClass];
      });
    expect(started.sort()).toEqual([
      ["everything__echo", "read"],
      ["everything__toggle-simulated-logging", "non_idempotent_write"],
    ]);
  });

  it("resource-link content reaches the model whole; an image is stored by reference in the media store, no base64 in the result (issue #19)", async () => {
    const links = await deployment.sendAndWait(
      "every-links",
      `/tool everything__get-resource-links ${JSON.stringify({ count: 2 })}`,
    );
    expect(links.status).toBe("completed");
    const linksText = links.status === "completed" ? links.text : "";
    expect(linksText).toMatch(/^Tool results:\neverything__get-resource-links: \{"content":\[/);
    const content = (
      JSON.parse(linksText.slice(linksText.indexOf("{"))) as {
        content: { type: string; uri?: string }[];
      }
    ).content;
    expect(content.filter((part) => part.type === "resource_link")).toHaveLength(2);
    expect(content.every((part) => part.type !== "resource_link" || part.uri !== undefined)).toBe(
      true,
    );

    const image = await deployment.sendAndWait(
      "every-image",
      "/tool everything__get-tiny-image {}",
    );
    expect(image.status).toBe("completed");
    const completed = image.events.find((event) => event.type === "tool.completed");
    const payload = completed?.payload as { content?: string; truncated?: boolean };
    expect(payload.truncated).toBeUndefined();
    const parts = (
      JSON.parse(payload.content ?? "{}") as {
        content: { type: string; digest?: string; mediaType?: string; size?: number }[];
      }
    ).content;
    const ref = parts.find((part) => part.type === "image");
    expect(ref).toMatchObject({
      mediaType: "image/png",
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/u) as unknown,
    });
    // The PNG's base64 ("iVBORw0KGgo…") is not in the result; the bytes are in the bucket.
    expect(payload.content).not.toContain("iVBORw0KGgo");
    const connection = await connect({ servers: deployment.natsUrl });
    try {
      const media = new ObjectStoreMediaStore(jetstream(connection), {
        bucket: streamNames(deployment.prefix).inbox.replace(/_INBOX$/u, "_MEDIA"),
      });
      const bytes = await media.get({
        digest: ref!.digest!,
        mediaType: "image/png",
        size: ref!.size!,
      });
      expect(bytes.length).toBe(ref!.size);
      expect(Buffer.from(bytes.subarray(1, 4)).toString("latin1")).toBe("PNG");
    } finally {
      await connection.close();
    }
  });

  it("notifications/progress of trigger-long-running-operation arrive as tool.progress events with growing progress", async () => {
    const progress: EventEnvelope<"tool.progress">[] = [];
    const outcome = await deployment.sendAndWait(
      "every-progress",
      `/tool everything__trigger-long-running-operation ${JSON.stringify({ duration: 2.5, steps: 5 })}`,
      {
        onEvent: ({ event }) => {
          if (event.type === "tool.progress") progress.push(event);
        },
      },
    );
    expect(outcome).toMatchObject({
      status: "completed",
      text: "Tool results:\neverything__trigger-long-running-operation: Long running operation completed. Duration: 2.5 seconds, Steps: 5.",
    });
    const started = outcome.events.find((event) => event.type === "tool.started")!;
    const toolCallId = (started.payload as { toolCallId: string }).toolCallId;
    // One step every 500 ms, throttled to at most one event per 250 ms: each step shows.
    expect(progress.length).toBeGreaterThanOrEqual(3);
    const values = progress.map((event) => event.payload.progress);
    for (let index = 1; index < values.length; index++) {
      expect(values[index]).toBeGreaterThan(values[index - 1]!);
    }
    // The last step may come with the result, after which no progress is sent.
    expect(values[0]).toBeGreaterThanOrEqual(1);
    expect(values.at(-1)).toBeLessThanOrEqual(5);
    expect(progress.map((event) => event.payload.index)).toEqual(progress.map((_, index) => index));
    for (const event of progress) {
      expect(event.payload).toMatchObject({
        toolCallId,
        tool: "everything__trigger-long-running-operation",
        total: 5,
      });
      expect(event.meta.actor).toMatch(/^tool\//);
    }
  });

  it("troupe cancel ends a run whose long-running MCP call is in flight: cancelled, and the call's result recorded", async () => {
    const sessionId = "every-cancel";
    const progress: number[] = [];
    // 120 s if it ran to its end: the run's wait below is far shorter.
    const run = deployment.sendAndWait(
      sessionId,
      `/tool everything__trigger-long-running-operation ${JSON.stringify({ duration: 120, steps: 240 })}`,
      {
        timeoutMs: 40_000,
        onEvent: ({ event }) => {
          if (event.type === "tool.progress") {
            progress.push(event.payload.progress);
          }
        },
      },
    );
    await waitFor(() => progress.length > 0, {
      timeoutMs: 30_000,
      description: "the first tool.progress",
    });
    const cancel = await runTroupe(
      [
        "cancel",
        sessionId,
        "--nats",
        deployment.natsUrl,
        "--redis",
        deployment.redisUrl,
        "--prefix",
        deployment.prefix,
        "--reason",
        "enough",
      ],
      { home, timeoutMs: 30_000 },
    );
    expect(cancel.stderr).toBe("");
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toMatch(/is being cancelled/);
    const outcome = await run;
    expect(outcome.status).toBe("cancelled");
    // The run ends first; its tool call, cancelled with it, records its result after.
    const [, settled] = await deployment.expectEvents(sessionId, [
      "run.cancelled",
      { type: "tool.failed", payload: { tool: "everything__trigger-long-running-operation" } },
    ]);
    expect(settled.payload.error.message).toBe(
      'Tool "everything__trigger-long-running-operation" was cancelled while it ran.',
    );
    expect(progress.at(-1)).toBeLessThan(240);
  }, 90_000);
});
