/**
 * The agent of the `troupe init` template (services/cli/templates/project),
 * from the repository's sources, on `createTestDeployment` of `@troupe/testkit`
 * (what the template's own test uses since issue #14; issue #13): its offline
 * model calls `convert_temperature` for a temperature in either unit and
 * answers with the result, and answers anything else with a hint. The
 * deprecated `startLocalCluster` still starts and stops. The installed-package
 * run of the template's own test is installed-project.test.ts.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentDefinition } from "@troupe/agents";
import { startLocalCluster } from "@troupe/dev";
import { PROJECT_TEMPLATE_DIR } from "@troupe/cli/internal";
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";

/** The template's agent.ts, the file `troupe init` copies. */
const { default: agent } = (await import(
  pathToFileURL(join(PROJECT_TEMPLATE_DIR, "agent.ts")).href
)) as { default: AgentDefinition };

describe("the troupe init template's agent on createTestDeployment", () => {
  let cluster: TestDeployment;

  beforeAll(async () => {
    cluster = await createTestDeployment({
      agents: agent,
      prefix: "template",
      servers: { dataDirPrefix: testRunMarker() },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it("serves the template's one agent", () => {
    expect(cluster.agents).toEqual(["assistant"]);
    expect(cluster.prefix).toBe("template");
    expect(cluster.natsUrl).toMatch(/^nats:\/\/[^:]+:\d+$/);
  });

  it.each([
    ["What is 25 C in F?", { celsius: 25, fahrenheit: 77 }, "25 °C is 77 °F."],
    ["and -40 °F?", { celsius: -40, fahrenheit: -40 }, "-40 °C is -40 °F."],
    ["98.6 f please", { celsius: 37, fahrenheit: 98.6 }, "37 °C is 98.6 °F."],
  ])("%s → calls convert_temperature and answers with its result", async (text, result, answer) => {
    const tools: { tool: string; content: unknown }[] = [];
    const outcome = await cluster.client.sendAndWait(`t-${tools.length}-${text.length}`, text, {
      timeoutMs: 20_000,
      onEvent: ({ event }) => {
        if (event.type === "tool.completed") {
          tools.push({
            tool: event.payload.tool,
            content: JSON.parse(event.payload.content ?? ""),
          });
        }
      },
    });
    expect(tools).toEqual([{ tool: "convert_temperature", content: result }]);
    expect(outcome).toMatchObject({ status: "completed", text: answer });
  });

  it("answers a message without a temperature with a hint, calling no tool", async () => {
    const types: string[] = [];
    const outcome = await cluster.client.sendAndWait("t-hint", "hello", {
      timeoutMs: 20_000,
      onEvent: ({ event }) => types.push(event.type),
    });
    expect(outcome).toMatchObject({
      status: "completed",
      text: 'Ask me to convert a temperature, e.g. "what is 25 C in F?"',
    });
    expect(types.filter((type) => type.startsWith("tool."))).toEqual([]);
  });

  it("the deprecated startLocalCluster still starts; stop() is idempotent and closes the client", async () => {
    const second = await startLocalCluster({ agents: [agent] });
    expect(second.agents).toEqual(["assistant"]);
    await Promise.all([second.stop(), second.stop()]);
    await expect(second.client.lastSequence()).rejects.toThrow();
  });
});
