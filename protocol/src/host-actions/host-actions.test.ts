import { describe, expect, it } from "vitest";
import {
  APPEND_ACTION,
  CANCEL_EFFECT_ACTION,
  EFFECT_ACTION,
  EMIT_ACTION,
  SEND_ACTION,
  hostActionImplementations,
} from "./host-actions.js";
import { appendEntry, cancelEffect, emitEvent } from "./host-action-creators.js";

describe("host action conventions", () => {
  it("names every host action, with no-op implementations", () => {
    expect(Object.keys(hostActionImplementations).sort()).toEqual(
      [APPEND_ACTION, CANCEL_EFFECT_ACTION, EFFECT_ACTION, EMIT_ACTION, SEND_ACTION].sort(),
    );
    for (const implementation of Object.values(hostActionImplementations)) {
      expect(implementation(undefined, undefined as never)).toBeUndefined();
    }
  });

  it("creators make plain { type, params } objects the host can store and interpret", () => {
    expect(emitEvent("message.accepted", { messageId: "m1", type: "user.message" })).toEqual({
      type: "troupe.emit",
      params: { type: "message.accepted", payload: { messageId: "m1", type: "user.message" } },
    });
    expect(
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 0,
        entry: { role: "user", text: "hi", messageId: "m1" },
      }),
    ).toEqual({
      type: "troupe.append",
      params: {
        log: "transcript",
        key: "s1",
        index: 0,
        entry: { role: "user", text: "hi", messageId: "m1" },
      },
    });
    expect(cancelEffect({ effectId: "r1.m1.a1" })).toEqual({
      type: "troupe.cancelEffect",
      params: { effectId: "r1.m1.a1" },
    });
  });
});
