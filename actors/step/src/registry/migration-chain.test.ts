import { TroupeError } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { migrationChain } from "./migration-chain.js";

const migrate = migrationChain(["1", "2", "3"], {
  "1": (state) => ({ ...(state as object), steps: ["1→2"] }),
  "2": (state) => {
    const previous = state as { steps?: string[] };
    return { ...previous, steps: [...(previous.steps ?? []), "2→3"] };
  },
});

describe("migrationChain", () => {
  it("runs the steps from the snapshot's version up to the current one, in order", () => {
    expect(migrate({ value: "a" }, "1")).toEqual({ value: "a", steps: ["1→2", "2→3"] });
    expect(migrate({ value: "a" }, "2")).toEqual({ value: "a", steps: ["2→3"] });
    expect(migrate({ value: "a" }, "3")).toEqual({ value: "a" });
  });

  it("refuses a version it does not know with unknown_machine_version, listing what it reads", () => {
    let caught: unknown;
    try {
      migrate({}, "4");
    } catch (error) {
      caught = error;
    }
    expect(TroupeError.isInstance(caught) && caught.code).toBe("unknown_machine_version");
    expect((caught as Error).message).toContain("reads versions 1, 2, 3");
  });

  it("is refused at definition when a version has no step out of it, or versions repeat", () => {
    expect(() => migrationChain(["1", "2", "3"], { "1": (s) => s })).toThrow(
      "no step out of version 2",
    );
    expect(() => migrationChain(["1", "1"], { "1": (s) => s })).toThrow("versions repeat");
  });
});
