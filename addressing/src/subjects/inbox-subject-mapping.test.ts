import { describe, expect, it } from "vitest";
import { inboxSubjectMapping } from "./inbox-subject-mapping.js";

describe("inboxSubjectMapping", () => {
  it("maps troupe.*.*.in to the shard inbox with partition over the kind and id tokens", () => {
    expect(inboxSubjectMapping(64)).toEqual({
      source: "troupe.*.*.in",
      destination: "_troupe.inbox.{{partition(64,1,2)}}.{{wildcard(1)}}.{{wildcard(2)}}",
    });
  });

  it.each([0, -4, 2.5])("refuses the shard count %d", (count) => {
    expect(() => inboxSubjectMapping(count)).toThrow(RangeError);
  });
});
