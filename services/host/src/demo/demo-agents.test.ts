import { ScriptedModel } from "@troupe/agents";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_AGENT_NAME, demoAgents, demoModel } from "./demo-agents.js";
import { saveNoteInputSchema } from "./save-note-tool.js";
import { sendEmailInputSchema } from "./send-email-tool.js";

// A real client that never connects: building the agents touches no server.
const redis = new Redis({ lazyConnect: true });
afterAll(() => redis.disconnect());

describe("demoAgents", () => {
  it("defines one agent, demo, with a read, an idempotent write and a write that asks", () => {
    const agents = demoAgents({ redis, env: {} });
    expect(agents.map((agent) => agent.name)).toEqual([DEMO_AGENT_NAME]);
    const tools = agents[0]?.tools ?? {};
    expect(
      Object.fromEntries(Object.values(tools).map((tool) => [tool.name, tool.effectClass])),
    ).toEqual({
      clock: "read",
      save_note: "idempotent_write",
      send_email: "non_idempotent_write",
    });
    expect(agents[0]?.toolPolicy).toEqual({ allow: [], ask: [], deny: [] });
  });

  it("has one subagent, researcher, whose agent has only the clock (issue #14)", () => {
    const [demo] = demoAgents({ redis, env: {} });
    expect(Object.keys(demo?.subagents ?? {})).toEqual(["researcher"]);
    const researcher = demo?.subagents["researcher"];
    expect(Object.keys(researcher?.agent.tools ?? {})).toEqual(["clock"]);
    expect(researcher?.agent.model).toBeInstanceOf(ScriptedModel);
  });

  it("uses TROUPE_MODEL when set, and the scripted demo otherwise", () => {
    expect(demoModel({ TROUPE_MODEL: "openai:gpt-4o-mini" })).toBe("openai:gpt-4o-mini");
    expect(demoAgents({ redis, env: { TROUPE_MODEL: "anthropic:claude-x" } })[0]?.model).toBe(
      "anthropic:claude-x",
    );
    expect(demoModel({})).toBeInstanceOf(ScriptedModel);
    expect(demoModel({ TROUPE_MODEL: " " })).toBeInstanceOf(ScriptedModel);
    expect(demoModel({ TROUPE_MODEL: "scripted:demo" })).toBeInstanceOf(ScriptedModel);
  });
});

describe("demo tool arguments", () => {
  it("save_note needs a title and a text", () => {
    expect(saveNoteInputSchema.safeParse({ title: "a", text: "b" }).success).toBe(true);
    expect(saveNoteInputSchema.safeParse({ title: " ", text: "b" }).success).toBe(false);
    expect(saveNoteInputSchema.safeParse({ title: "a" }).success).toBe(false);
  });

  it("send_email needs an email address, a subject and a body", () => {
    expect(
      sendEmailInputSchema.safeParse({ to: "ada@example.com", subject: "Hi", body: "" }).success,
    ).toBe(true);
    expect(sendEmailInputSchema.safeParse({ to: "ada", subject: "Hi", body: "x" }).success).toBe(
      false,
    );
    expect(
      sendEmailInputSchema.safeParse({ to: "ada@example.com", subject: "", body: "x" }).success,
    ).toBe(false);
  });
});
