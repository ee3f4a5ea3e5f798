/**
 * An evaluation of the agent: a small dataset, the agent under test (here its
 * offline model; with a real model, record its calls once in a cassette, see
 * the test kit's `ModelCassette`), and scorers. `runEval` runs each case in
 * its own session and scores it; the report is JSON and a table.
 */
import {
  contains,
  createTestDeployment,
  runEval,
  toolCalledWith,
  type TestDeployment,
} from "@troupe/testkit";
import { afterAll, beforeAll, expect, test } from "vitest";
import agent from "./agent.js";

let deployment: TestDeployment | undefined;

beforeAll(async () => {
  deployment = await createTestDeployment({ agents: agent });
}, 60_000);

afterAll(async () => {
  await deployment?.stop();
});

test("converts temperatures in both directions", async () => {
  const report = await runEval({
    deployment: deployment!,
    dataset: [
      { id: "c-to-f", input: "What is 25 C in F?", expected: "77 °F" },
      { id: "f-to-c", input: "And 212 F in C?", expected: "100 °C" },
      { id: "freezing", input: "Convert 32 F please", expected: "0 °C" },
    ],
    scorers: [contains(), toolCalledWith("convert_temperature")],
  });
  console.log(report.table());
  expect(report.summary).toMatchObject({ cases: 3, passed: 3 });
}, 60_000);
