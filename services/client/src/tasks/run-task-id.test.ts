import { describe, expect, it } from "vitest";
import { InvalidTaskIdError, parseRunTaskId, runTaskId } from "./run-task-id.js";

describe("run task ids", () => {
  it("encode the session and the client message id, and read back", () => {
    const taskId = runTaskId({ sessionId: "mcp-1", clientMessageId: "c_9" });
    expect(taskId).toBe("mcp-1.c_9");
    expect(parseRunTaskId(taskId)).toEqual({ sessionId: "mcp-1", clientMessageId: "c_9" });
  });

  it.each(["", "mcp-1", "a.b.c", ".c1", "s1.", "s 1.c1", `s1.${"x".repeat(129)}`])(
    "refuse %j with InvalidTaskIdError (invalid_address)",
    (taskId) => {
      let caught: unknown;
      try {
        parseRunTaskId(taskId);
      } catch (error) {
        caught = error;
      }
      expect(InvalidTaskIdError.isInstance(caught)).toBe(true);
      expect((caught as InvalidTaskIdError).code).toBe("invalid_address");
      expect((caught as InvalidTaskIdError).taskId).toBe(taskId);
    },
  );

  it("refuse to build an id from a part with a dot", () => {
    expect(() => runTaskId({ sessionId: "a.b", clientMessageId: "c1" })).toThrow(
      InvalidTaskIdError,
    );
  });
});
