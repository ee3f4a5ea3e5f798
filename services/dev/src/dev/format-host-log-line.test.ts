import { describe, expect, it } from "vitest";
import { formatHostLogLine } from "./format-host-log-line.js";

// As a host logs the demo's `/fail` at warn level (issue #13: no stack there).
const FAIL_LINE = JSON.stringify({
  level: 40,
  time: 1796095474664,
  pid: 24640,
  hostname: "vm",
  hostId: "host-24640-4017e1b4",
  actor: "run/f1",
  effect: "model.call",
  effectId: "r1.m1.a1",
  error: {
    code: "model_error",
    message:
      "model demo-agent of troupe.scripted failed (HTTP 400): the demo model refuses this request",
    retryable: false,
  },
  msg: "effect failed",
});

describe("formatHostLogLine (troupe dev's view of host logs, issue #13)", () => {
  it("an expected model error is one readable line", () => {
    expect(formatHostLogLine(FAIL_LINE)).toEqual([
      "warn run/f1 model.call: effect failed — model_error: model demo-agent of troupe.scripted " +
        "failed (HTTP 400): the demo model refuses this request (effectId=r1.m1.a1)",
    ]);
  });

  it("a stack (logged at debug level) follows on indented lines", () => {
    const line = JSON.stringify({
      level: 20,
      actor: "run/f1",
      effect: "model.call",
      err: {
        message: "HTTP 400",
        stack: "ModelCallError: HTTP 400\n    at toModelCallError (x.ts:1:1)",
      },
      msg: "effect failed: stack",
    });
    expect(formatHostLogLine(line)).toEqual([
      "debug run/f1 model.call: effect failed: stack — HTTP 400",
      "    ModelCallError: HTTP 400",
      "        at toModelCallError (x.ts:1:1)",
    ]);
  });

  it("a line that is not a pino record is kept as it is", () => {
    expect(formatHostLogLine("troupe host h1: SIGTERM received, draining")).toEqual([
      "troupe host h1: SIGTERM received, draining",
    ]);
    expect(formatHostLogLine('{"ready":true}')).toEqual(['{"ready":true}']);
  });
});
