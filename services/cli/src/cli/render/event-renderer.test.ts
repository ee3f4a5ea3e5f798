import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { EventRenderer } from "./event-renderer.js";
import type { RenderableEvent } from "./renderable-event.js";

const SESSION = "s-1";
let sequence = 0;

/** A hand-built event as the stream delivers it; `actor` defaults to the session. */
function event(type: string, payload: unknown, actor = `session/${SESSION}`): RenderableEvent {
  sequence += 1;
  const envelope = {
    v: 1,
    id: `${actor}:ev:${sequence}`,
    type,
    payload,
    meta: { actor, seq: sequence, timestampMs: 1_764_482_645_000 },
  } as EventEnvelope;
  return { sequence, subject: `troupe.session.${SESSION}.events.${type}`, event: envelope };
}

const delta = (attempt: number, index: number, text: string, kind = "text") =>
  event("run.delta", { runId: "run-1", modelCallId: "run-1.m2", attempt, index, kind, text });
const usage = { inputTokens: 10, outputTokens: 4 };

function renderAll(renderer: EventRenderer, events: readonly RenderableEvent[]): string[] {
  return events.map((item) => renderer.render(item));
}

describe("EventRenderer", () => {
  it("renders a conversation with an approval, a retried answer and replayed deltas", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const outputs = renderAll(renderer, [
      event("session.created", { sessionId: SESSION, agent: "demo" }),
      event("message.accepted", { messageId: "m-1", type: "user.message", runId: "run-1" }),
      event("run.started", { runId: "run-1", messageId: "m-1", agent: "demo" }),
      event("tool.approval_requested", {
        toolCallId: "call-2-1",
        tool: "send_email",
        arguments: { to: "ada@example.com", subject: "Lunch" },
        runId: "run-1",
      }),
      event("tool.approval_settled", { toolCallId: "call-2-1", decision: "approved" }),
      event("tool.started", { toolCallId: "call-2-1", runId: "run-1", tool: "send_email" }),
      event("tool.completed", {
        toolCallId: "call-2-1",
        runId: "run-1",
        tool: "send_email",
        output: { sent: true, to: "ada@example.com" },
        content: '{"sent":true,"to":"ada@example.com"}',
      }),
      delta(1, 0, "Sent"),
      delta(1, 1, " the"),
      delta(2, 0, "Sent"),
      delta(1, 1, " the"),
      delta(2, 1, " the email."),
      delta(2, 1, " the email."),
      event("run.completed", { runId: "run-1", text: "Sent the email.", usage }),
      event("session.idle", { sessionId: SESSION, lastRunId: "run-1" }),
    ]);
    expect(outputs).toEqual([
      "· session s-1 created (agent demo)\n",
      "· user.message accepted (run run-1)\n",
      "▶ run run-1 (demo)\n",
      '⏸ send_email {"to":"ada@example.com","subject":"Lunch"} needs your approval\n' +
        "  approve: troupe approve s-1 call-2-1\n" +
        "  deny:    troupe deny s-1 call-2-1\n",
      "✓ send_email approved\n",
      '⚙ send_email {"to":"ada@example.com","subject":"Lunch"}\n',
      '✓ send_email → {"sent":true,"to":"ada@example.com"}\n',
      "Sent",
      " the",
      "\n↻ streaming again (stream attempt 2)\nSent",
      "",
      " the email.",
      "",
      "\n",
      "· idle\n",
    ]);
    expect(outputs.join("")).toBe(
      [
        "· session s-1 created (agent demo)",
        "· user.message accepted (run run-1)",
        "▶ run run-1 (demo)",
        '⏸ send_email {"to":"ada@example.com","subject":"Lunch"} needs your approval',
        "  approve: troupe approve s-1 call-2-1",
        "  deny:    troupe deny s-1 call-2-1",
        "✓ send_email approved",
        '⚙ send_email {"to":"ada@example.com","subject":"Lunch"}',
        '✓ send_email → {"sent":true,"to":"ada@example.com"}',
        "Sent the",
        "↻ streaming again (stream attempt 2)",
        "Sent the email.",
        "· idle",
        "",
      ].join("\n"),
    );
  });

  it("prints the answer of a run that streamed no text, and ignores deltas after the run ended", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    expect(
      renderer.render(
        event("run.completed", { runId: "run-1", text: "It is 15:04 in Asia/Tokyo.", usage }),
      ),
    ).toBe("It is 15:04 in Asia/Tokyo.\n");
    expect(renderer.render(delta(1, 0, "late"))).toBe("");
  });

  it("prints the final answer when only text before a tool call streamed", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const outputs = renderAll(renderer, [
      event("run.delta", {
        runId: "run-1",
        modelCallId: "run-1.m1",
        attempt: 1,
        index: 0,
        kind: "text",
        text: "Checking.",
      }),
      event("tool.started", { toolCallId: "c1", runId: "run-1", tool: "clock" }),
      event("tool.completed", {
        toolCallId: "c1",
        runId: "run-1",
        tool: "clock",
        content: "15:04",
      }),
      event("run.completed", { runId: "run-1", text: "It is 15:04.", usage }),
    ]);
    expect(outputs).toEqual(["Checking.", "\n⚙ clock\n", "✓ clock → 15:04\n", "It is 15:04.\n"]);
  });

  it("shows reasoning and text of one call on separate lines", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const outputs = renderAll(renderer, [
      delta(1, 0, "The user wrote 2 words.", "reasoning"),
      delta(1, 1, "You said: hi there"),
      event("run.completed", { runId: "run-1", text: "You said: hi there", usage }),
    ]);
    expect(outputs.join("")).toBe("The user wrote 2 words.\nYou said: hi there\n");
  });

  it("shows failures in red, unknown outcomes and cancellations in yellow, and denials as such", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const outputs = renderAll(renderer, [
      event("tool.failed", {
        toolCallId: "c1",
        runId: "run-1",
        tool: "clock",
        error: { code: "tool_failed", message: 'Unknown time zone "Mars/Base"', retryable: false },
      }),
      event("tool.failed", {
        toolCallId: "c2",
        runId: "run-1",
        tool: "send_email",
        error: {
          code: "denied",
          message: "Denied by the user: the call did not run.",
          retryable: false,
        },
      }),
      event("tool.outcome_unknown", {
        toolCallId: "c3",
        runId: "run-1",
        tool: "send_email",
        reason: "the host stopped",
      }),
      event("run.failed", {
        runId: "run-1",
        code: "model_error",
        message: "the demo model refuses this request",
      }),
      event("run.cancelled", { runId: "run-2", usage, reason: "user pressed stop" }),
      event("message.rejected", {
        reason: "text is empty",
        code: "decode_failed",
        type: "user.message",
      }),
    ]);
    expect(outputs).toEqual([
      '✗ clock failed (tool_failed): Unknown time zone "Mars/Base"\n',
      "✗ send_email denied: Denied by the user: the call did not run.\n",
      "? send_email outcome unknown: the host stopped\n",
      "✗ run run-1 failed (model_error): the demo model refuses this request\n",
      "⊘ run run-2 cancelled: user pressed stop\n",
      "✗ user.message rejected (decode_failed): text is empty\n",
    ]);
    const colored = new EventRenderer({ color: true, sessionId: SESSION });
    expect(colored.render(event("run.failed", { runId: "r", code: "x", message: "y" }))).toBe(
      "\u001b[31m✗ run r failed (x): y\u001b[39m\n",
    );
    expect(
      colored.render(event("tool.outcome_unknown", { toolCallId: "c", runId: "r", tool: "t" })),
    ).toBe("\u001b[33m? t outcome unknown\u001b[39m\n");
  });

  it("prints a tool's progress as a dim line, with its total and message when given (issue #15)", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const progress = { toolCallId: "c1", runId: "run-1", tool: "everything__trigger" };
    expect(renderer.render(event("tool.progress", { ...progress, progress: 2, index: 0 }))).toBe(
      "… everything__trigger 2\n",
    );
    expect(
      renderer.render(
        event("tool.progress", { ...progress, progress: 3, total: 5, message: "step 3", index: 1 }),
      ),
    ).toBe("… everything__trigger 3/5 step 3\n");
  });

  it("says a denied approval once, and a denial by policy in yellow", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const denied = {
      code: "denied",
      message: "Denied by the user: the call did not run.",
      retryable: false,
    };
    const outputs = renderAll(renderer, [
      event("tool.approval_requested", {
        toolCallId: "c1",
        tool: "send_email",
        arguments: {},
        runId: "run-1",
      }),
      event("tool.approval_settled", { toolCallId: "c1", decision: "denied" }),
      event("tool.failed", { toolCallId: "c1", runId: "run-1", tool: "send_email", error: denied }),
      event("tool.approval_settled", {
        toolCallId: "c1",
        decision: "denied",
        alreadySettled: true,
      }),
      event("tool.approval_requested", {
        toolCallId: "c2",
        tool: "send_email",
        arguments: {},
        runId: "run-1",
      }),
      event("tool.approval_settled", { toolCallId: "c2", decision: "timed_out" }),
    ]);
    expect(outputs.slice(1)).toEqual([
      "✗ send_email denied\n",
      "",
      "· send_email was already denied\n",
      outputs[4],
      "✗ send_email approval timed out\n",
    ]);
  });

  it("prints a question with its choices and the command that answers it", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const outputs = renderAll(renderer, [
      event("question.asked", {
        questionId: "q-1",
        runId: "run-1",
        text: "Which city?",
        choices: ["Lisbon", "Porto"],
      }),
      event("question.answered", { questionId: "q-1", text: "Lisbon", runId: "run-1" }),
    ]);
    expect(outputs).toEqual([
      "? Which city?\n  choices: Lisbon | Porto\n  answer:  troupe answer s-1 q-1 <text>\n",
      "↳ answered: Lisbon\n",
    ]);
  });

  it("commands for a subagent's approval go to the followed session, naming the subagent's", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    expect(
      renderer.render(
        event("tool.approval_requested", {
          toolCallId: "c9",
          tool: "charge",
          arguments: {},
          runId: "run-9",
          sessionId: "sub-abc",
        }),
      ),
    ).toBe(
      `⏸ charge {} needs your approval\n  approve: troupe approve ${SESSION} c9 --subagent sub-abc\n` +
        `  deny:    troupe deny ${SESSION} c9 --subagent sub-abc\n`,
    );
  });

  it("says what a compaction summarised and the prompt tokens before and after (issue #19)", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const outputs = renderAll(renderer, [
      event(
        "session.compacted",
        {
          sessionId: SESSION,
          runId: "r7",
          summaryIndex: 42,
          through: 36,
          tokensBefore: 96120,
          tokensAfter: 14210,
          reason: "budget",
          usage,
        },
        `run/${SESSION}`,
      ),
    ]);
    expect(outputs).toEqual([
      "⇲ compacted (budget): entries 0–35 summarised, ~96120 → ~14210 prompt tokens\n",
    ]);
  });

  it("indents a subagent's run and leaves its answer to subagent.completed", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const outputs = renderAll(renderer, [
      event("subagent.started", {
        subagent: "session/sub-x",
        runId: "run-1",
        task: "Find sources.",
        agent: "researcher",
      }),
      event("run.started", { runId: "run-s", agent: "researcher" }, "session/sub-x"),
      event("tool.started", { toolCallId: "c1", runId: "run-s", tool: "lookup" }, "tool/t-1"),
      event("run.completed", { runId: "run-s", text: "Three sources.", usage }, "run/sub-x"),
      event("subagent.completed", {
        subagent: "session/sub-x",
        runId: "run-1",
        text: "Three sources.",
      }),
    ]);
    expect(outputs).toEqual([
      "⇢ researcher: Find sources.\n",
      "  ▶ run run-s (researcher)\n",
      "  ⚙ lookup\n",
      "",
      "⇠ researcher: Three sources.\n",
    ]);
  });

  it("keeps a subagent's run r1 apart from its parent's run r1 (run ids restart per session)", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const delta = (text: string, actor: string, modelCallId: string) =>
      event(
        "run.delta",
        { runId: "r1", modelCallId, attempt: 1, kind: "text", text, index: 0 },
        actor,
      );
    const output = renderAll(renderer, [
      event("run.started", { runId: "r1" }),
      event("subagent.started", { subagent: "session/sub-x", runId: "r1", task: "Dig." }),
      event("run.started", { runId: "r1" }, "session/sub-x"),
      delta("sub answer", "run/sub-x", "r1.m1"),
      event("run.completed", { runId: "r1", text: "sub answer", usage }, "run/sub-x"),
      event("subagent.completed", { subagent: "session/sub-x", runId: "r1", text: "sub answer" }),
      delta("PARENT ANSWER", `run/${SESSION}`, "r1.m2"),
      event("run.completed", { runId: "r1", text: "PARENT ANSWER", usage }, `run/${SESSION}`),
    ]).join("");
    expect(output).toContain("  sub answer\n");
    // The parent's answer streams once, unindented, after the subagent's.
    expect(output.match(/PARENT ANSWER/g)).toHaveLength(1);
    expect(output).toMatch(/\nPARENT ANSWER\n$/);
  });

  it("renders unknown types and malformed payloads as a dim line and never throws", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    expect(renderer.render(event("custom.thing", { a: 1 }))).toBe('custom.thing {"a":1}\n');
    expect(renderer.render(event("run.delta", { runId: "run-1" }))).toBe(
      'run.delta {"runId":"run-1"}\n',
    );
    expect(renderer.render(event("tool.completed", undefined))).toBe("tool.completed null\n");
    expect(renderer.render(event("toString", {}))).toBe("toString {}\n");
  });

  it("cuts long tool results to 200 characters", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION });
    const output = renderer.render(
      event("tool.completed", {
        toolCallId: "c1",
        runId: "run-1",
        tool: "read_file",
        output: "x".repeat(500),
        truncated: true,
      }),
    );
    expect(output).toBe(`✓ read_file → ${"x".repeat(199)}… (truncated)\n`);
  });

  it("prefixes lines with the stream sequence when asked", () => {
    const renderer = new EventRenderer({ color: false, sessionId: SESSION, showSequence: true });
    const first = event("session.idle", { sessionId: SESSION });
    expect(renderer.render(first)).toBe(`#${first.sequence} · idle\n`);
    const streamed = delta(1, 0, "Hi");
    expect(renderer.render(streamed)).toBe(`#${streamed.sequence} Hi`);
    expect(renderer.render(delta(1, 1, " there"))).toBe(" there");
  });

  it("writes no ANSI escapes without color, and some with it", () => {
    const events = () => [
      event("run.started", { runId: "run-1" }),
      event("tool.started", { toolCallId: "c1", runId: "run-1", tool: "clock" }),
      delta(1, 0, "x", "reasoning"),
      event("session.idle", { sessionId: SESSION }),
    ];
    const plain = renderAll(new EventRenderer({ color: false, sessionId: SESSION }), events()).join(
      "",
    );
    const colored = renderAll(
      new EventRenderer({ color: true, sessionId: SESSION }),
      events(),
    ).join("");
    // eslint-disable-next-line no-control-regex
    const ansi = /\u001b\[/;
    expect(ansi.test(plain)).toBe(false);
    expect(ansi.test(colored)).toBe(true);
  });
});
