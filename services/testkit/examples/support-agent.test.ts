/**
 * A complete test of a Troupe agent with @troupe/testkit: copy this file into
 * your project and run `npx vitest run`.
 *
 * Needs: `npm i -D @troupe/testkit vitest` next to `@troupe/agents` and `zod`,
 * and either Docker/Podman (the servers run in containers when the optional
 * `testcontainers` package is installed) or `nats-server` and `redis-server` on
 * the PATH (Debian/Ubuntu: `apt-get install nats-server redis-server`; macOS:
 * `brew install nats-server redis`).
 *
 * The agent under test looks up an order (a read: runs at once) and refunds it
 * (a payment: every call waits for a human's approval, 24 h at most). The model
 * is a script, so the test is deterministic and needs no API key.
 */
import { defineAgent, defineTool } from "@troupe/agents";
import {
  callTool,
  createTestDeployment,
  reply,
  scriptedModel,
  type ScriptedRequest,
  type TestDeployment,
} from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

/** Orders refunded by the tool, in call order: what the tests check the side effect with. */
const refunds: string[] = [];

const lookUpOrder = defineTool({
  name: "look_up_order",
  description: "Looks up an order by its id.",
  inputSchema: z.object({ orderId: z.string() }),
  effectClass: "read",
  execute: async ({ orderId }) => ({ orderId, status: "delivered", totalCents: 4200 }),
});

const refundOrder = defineTool({
  name: "refund_order",
  description: "Refunds an order in full.",
  inputSchema: z.object({ orderId: z.string() }),
  // Not safe to repeat: Troupe asks for approval before each call.
  effectClass: "non_idempotent_write",
  execute: async ({ orderId }) => {
    refunds.push(orderId);
    return { orderId, refunded: true };
  },
});

/** The text of the latest tool result the model was given (Troupe passes results as JSON text). */
function lastToolResult({ messages }: ScriptedRequest): string {
  const last = messages.at(-1);
  if (last?.role !== "tool") return "";
  const part = last.content.find((candidate) => candidate.type === "tool-result");
  if (part?.type !== "tool-result" || !("value" in part.output)) return "";
  const { value } = part.output;
  return typeof value === "string" ? value : JSON.stringify(value);
}

const supportAgent = defineAgent({
  name: "support",
  instructions: "Look orders up, and refund them when the customer asks.",
  // Every session plays these steps in order: one step per model call.
  model: scriptedModel([
    callTool("look_up_order", { orderId: "A1" }),
    callTool("refund_order", { orderId: "A1" }),
    (request) =>
      reply(
        lastToolResult(request).includes('"refunded":true')
          ? "Order A1 is refunded: 42.00 will be back on your card."
          : "I could not refund order A1.",
      ),
  ]),
  tools: [lookUpOrder, refundOrder],
});

describe("the support agent", () => {
  let deployment: TestDeployment;

  beforeAll(async () => {
    // Real NATS and Redis, a host serving the agent in this process, and a client.
    deployment = await createTestDeployment({ agents: supportAgent });
  }, 120_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  it("refunds an order once a human approves the payment", async () => {
    // Not awaited yet: the run stops to wait for the approval.
    const run = deployment.sendAndWait("approved", "Please refund order A1");

    const approval = await deployment.waitForApproval("approved");
    expect(approval).toMatchObject({ tool: "refund_order", arguments: { orderId: "A1" } });
    expect((await deployment.approve("approved", approval)).verdict).toBe("applied");

    const outcome = await run;
    expect(outcome).toMatchObject({
      status: "completed",
      text: "Order A1 is refunded: 42.00 will be back on your card.",
    });
    expect(refunds).toEqual(["A1"]);
    // The session's story, in order (other events may come in between).
    await deployment.expectEvents("approved", [
      { type: "tool.completed", payload: { tool: "look_up_order" } },
      "tool.approval_requested",
      { type: "tool.approval_settled", payload: { decision: "approved" } },
      { type: "tool.completed", payload: { tool: "refund_order" } },
      "run.completed",
    ]);
  });

  it("does not refund when the human denies, and says so", async () => {
    const run = deployment.sendAndWait("denied", "Please refund order A1");
    const approval = await deployment.waitForApproval("denied");
    await deployment.deny("denied", approval, { reason: "the order is not eligible" });

    expect(await run).toMatchObject({ status: "completed", text: "I could not refund order A1." });
    expect(refunds).toEqual(["A1"]); // only the approved session's refund
  });

  it("gives up on an approval nobody answers within 24 hours (in milliseconds)", async () => {
    const run = deployment.sendAndWait("unanswered", "Please refund order A1");
    await deployment.waitForApproval("unanswered");

    // A day passes for the durable timers: the approval timeout fires.
    await deployment.clock.advance(24 * 60 * 60 * 1000);

    const [settled] = await deployment.expectEvents("unanswered", [
      { type: "tool.approval_settled", payload: { decision: "timed_out" } },
    ]);
    expect(settled.payload.decision).toBe("timed_out");
    expect(await run).toMatchObject({ status: "completed", text: "I could not refund order A1." });
    expect(refunds).toEqual(["A1"]);
  });
});
