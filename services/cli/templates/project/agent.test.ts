/**
 * The agent against real servers: `createTestDeployment` (from
 * `@troupe/testkit`) starts NATS and Redis (containers when Docker or Podman
 * answers, else the local nats-server and redis-server on free ports, with
 * temporary data) and a host serving the agent in this process, as `troupe
 * dev` would. See the test kit's README for every helper.
 */
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { afterAll, beforeAll, expect, test } from "vitest";
import agent from "./agent.js";

let deployment: TestDeployment | undefined;

beforeAll(async () => {
  deployment = await createTestDeployment({ agents: agent });
}, 60_000);

afterAll(async () => {
  await deployment?.stop();
});

test("converts 25 °C with the convert_temperature tool and answers with the result", async () => {
  const outcome = await deployment!.sendAndWait("test-session", "What is 25 C in F?");
  expect(outcome).toMatchObject({ status: "completed", text: "25 °C is 77 °F." });
  // What the tool returned, as the model read it (JSON text), from the run's events.
  const [completed] = await deployment!.expectEvents("test-session", [
    { type: "tool.completed", payload: { tool: "convert_temperature" } },
  ]);
  expect(JSON.parse(completed.payload.content ?? "")).toEqual({ celsius: 25, fahrenheit: 77 });
}, 40_000);
