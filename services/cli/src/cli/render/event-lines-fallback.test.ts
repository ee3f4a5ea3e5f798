import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { EventRenderer } from "./event-renderer.js";
import type { RenderableEvent } from "./renderable-event.js";

function event(type: string, payload: unknown): RenderableEvent {
  const envelope = {
    v: 1,
    id: `session/s-1:ev:4`,
    type,
    payload,
    meta: { actor: "session/s-1", seq: 4, timestampMs: 1_764_482_645_000 },
  } as EventEnvelope;
  return { sequence: 4, subject: `troupe.session.s-1.events.${type}`, event: envelope };
}

describe("EventRenderer: fallback models (issue #19)", () => {
  it("prints run.model_fallback as a yellow line naming both models and the error", () => {
    const payload = {
      runId: "r1",
      modelCallIndex: 1,
      fromIndex: 0,
      toIndex: 1,
      from: "anthropic:claude-sonnet-4-5",
      to: "openai:gpt-4o",
      code: "model_error",
      message: "overloaded",
      statusCode: 529,
    };
    const plain = new EventRenderer({ color: false, sessionId: "s-1" });
    expect(plain.render(event("run.model_fallback", payload))).toBe(
      "↪ run r1: anthropic:claude-sonnet-4-5 unavailable (model_error, HTTP 529), falling back to openai:gpt-4o\n",
    );
    const { statusCode: _statusCode, ...timeout } = { ...payload, code: "model_timeout" };
    expect(
      new EventRenderer({ color: true, sessionId: "s-1" }).render(
        event("run.model_fallback", timeout),
      ),
    ).toBe(
      "\u001b[33m↪ run r1: anthropic:claude-sonnet-4-5 unavailable (model_timeout), falling back to openai:gpt-4o\u001b[39m\n",
    );
  });
});
