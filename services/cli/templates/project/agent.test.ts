/**
 * The agent against real servers: `startLocalCluster` starts nats-server and
 * redis-server on free ports (temporary data) and a host serving the agent in
 * this process, as `troupe dev` would.
 */
import { startLocalCluster, type LocalCluster } from "@troupe/cli";
import { afterAll, beforeAll, expect, test } from "vitest";
import agent from "./agent.js";

let cluster: LocalCluster | undefined;

beforeAll(async () => {
  cluster = await startLocalCluster({ agents: agent });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

test("converts 25 °C with the convert_temperature tool and answers with the result", async () => {
  // What the tool returned, as the model read it (JSON text), from the session's events.
  const toolResults: unknown[] = [];
  const outcome = await cluster!.client.sendAndWait("test-session", "What is 25 C in F?", {
    timeoutMs: 30_000,
    onEvent: ({ event }) => {
      if (event.type === "tool.completed")
        toolResults.push(JSON.parse(event.payload.content ?? ""));
    },
  });
  expect(toolResults).toEqual([{ celsius: 25, fahrenheit: 77 }]);
  expect(outcome).toMatchObject({ status: "completed", text: "25 °C is 77 °F." });
}, 40_000);
