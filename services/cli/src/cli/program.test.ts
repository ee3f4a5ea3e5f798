import { CommanderError, type Command } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "./program.js";

function find(program: Command, path: string[]): Command {
  let command = program;
  for (const name of path) command = command.commands.find((sub) => sub.name() === name)!;
  return command;
}

async function refusal(args: string[]): Promise<CommanderError> {
  const program = createProgram();
  let stderr = "";
  const silence = (command: Command): void => {
    command.exitOverride().configureOutput({ writeErr: (text) => (stderr += text) });
    command.commands.forEach(silence);
  };
  silence(program);
  try {
    await program.parseAsync(["node", "troupe", ...args]);
  } catch (error) {
    if (error instanceof CommanderError) return Object.assign(error, { stderr });
    throw error;
  }
  throw new Error(`troupe ${args.join(" ")} was not refused`);
}

describe("--json where it is not taken", () => {
  it("a subcommand that takes --json keeps it: its parent gets no hidden --json", () => {
    const program = createProgram();
    const takes = (path: string[]) =>
      find(program, path).options.some((option) => option.long === "--json");
    expect(takes(["history"])).toBe(false);
    expect(takes(["history", "replay"])).toBe(true);
  });

  it("a subcommand without JSON output refuses --json by its full name", async () => {
    const error = await refusal(["history", "export", "session/x", "--json"]);
    expect(error.code).toBe("troupe.jsonNotTaken");
    expect(error.message).toMatch(
      /^error: troupe history export does not take --json; these commands do: .*history replay/,
    );
  });
});
