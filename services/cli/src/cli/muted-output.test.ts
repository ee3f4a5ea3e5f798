import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { MutedOutput } from "./muted-output.js";

/** A stand-in terminal: records writes, 80 columns. */
function fakeTerminal() {
  const written: string[] = [];
  const terminal = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: 80,
    rows: 24,
    write: (chunk: Buffer | string) => written.push(chunk.toString()) > 0,
  });
  return { terminal: terminal as unknown as NodeJS.WriteStream, written };
}

describe("MutedOutput (troupe chat's readline output)", () => {
  it("passes writes through in order, drops them while muted, and reports no line width then", () => {
    const { terminal, written } = fakeTerminal();
    const output = new MutedOutput(terminal);
    output.write("you › ");
    output.muted = true;
    expect(output.columns).toBe(Infinity);
    output.write("typed during the answer");
    output.muted = false;
    output.write("hi");
    expect(written).toEqual(["you › ", "hi"]);
    expect(output.columns).toBe(80);
    expect(output.isTTY).toBe(true);
  });

  it("forwards the terminal's resize", () => {
    const { terminal } = fakeTerminal();
    const output = new MutedOutput(terminal);
    let resized = 0;
    output.on("resize", () => (resized += 1));
    terminal.emit("resize");
    expect(resized).toBe(1);
  });
});
