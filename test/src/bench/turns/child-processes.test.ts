import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { childProcesses, parseProcStat } from "./child-processes.js";

describe("parseProcStat", () => {
  it("reads pid, command and parent pid, also with spaces and parentheses in the command", () => {
    expect(parseProcStat("27070 (nats-server) S 26650 27068 24081 0 -1 4194304 122 0")).toEqual({
      pid: 27070,
      command: "nats-server",
      parentPid: 26650,
    });
    expect(parseProcStat("41 (a (b) c) R 7 41 41 0")).toEqual({
      pid: 41,
      command: "a (b) c",
      parentPid: 7,
    });
    expect(parseProcStat("")).toBeUndefined();
    expect(parseProcStat("x (y) S z")).toBeUndefined();
  });

  it.runIf(process.platform === "linux")(
    "finds a process this one spawned among its children, by pid and command",
    async () => {
      const child = spawn("sleep", ["30"], { stdio: "ignore" });
      try {
        await once(child, "spawn");
        expect(await childProcesses(process.pid)).toContainEqual({
          pid: child.pid,
          command: "sleep",
          parentPid: process.pid,
        });
      } finally {
        child.kill("SIGKILL");
      }
    },
    10_000,
  );
});
