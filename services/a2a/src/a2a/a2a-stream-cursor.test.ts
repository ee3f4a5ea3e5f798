import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { ServerCallContext, STATE_HEADERS_KEY } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { resumeCursorOf } from "./a2a-stream-cursor.js";

/** A call context as the SDK's Express handler builds it, with these request headers. */
const withHeaders = (headers: Record<string, string | string[] | undefined>) =>
  new ServerCallContext({ state: new Map([[STATE_HEADERS_KEY, headers]]) });

describe("resumeCursorOf", () => {
  it("reads the Last-Event-ID header of the request", () => {
    expect(resumeCursorOf(withHeaders({ "last-event-id": "41.17" }))).toEqual({
      eventSequence: 41,
      deltaSequence: 17,
    });
    expect(resumeCursorOf(withHeaders({ "Last-Event-ID": "41.17.1" }))).toEqual({
      eventSequence: 41,
      deltaSequence: 17,
      part: 1,
    });
  });

  it("is undefined without the header, an empty one, or no context", () => {
    expect(resumeCursorOf(withHeaders({ accept: "text/event-stream" }))).toBeUndefined();
    expect(resumeCursorOf(withHeaders({ "last-event-id": "" }))).toBeUndefined();
    expect(resumeCursorOf(new ServerCallContext())).toBeUndefined();
    expect(resumeCursorOf(undefined)).toBeUndefined();
  });

  it.each([["41"], ["abc"], [["1.0", "2.0"]]])("refuses %j with RequestMalformedError", (value) => {
    expect(() => resumeCursorOf(withHeaders({ "last-event-id": value }))).toThrow(
      RequestMalformedError,
    );
  });
});
