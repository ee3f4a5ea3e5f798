import { describe, expect, it } from "vitest";
import { usageCommand } from "./usage-command.js";

/** Parses `troupe usage <args>` without running it; the error commander reports, if any. */
async function refusal(args: string[]): Promise<string | undefined> {
  const command = usageCommand()
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  try {
    await command.parseAsync(["node", "usage", ...args]);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("troupe usage flags (issue #19)", () => {
  it("needs exactly one of --session, --tree, --agent, before connecting to anything", async () => {
    expect(await refusal([])).toBe("error: give exactly one of --session, --tree, --agent");
    expect(await refusal(["--tree", "s1", "--agent", "boss"])).toBe(
      "error: give exactly one of --session, --tree, --agent",
    );
  });

  it("takes --day only as YYYY-MM-DD with --agent", async () => {
    expect(await refusal(["--agent", "boss", "--day", "yesterday"])).toBe(
      "error: --day takes YYYY-MM-DD and goes with --agent",
    );
    expect(await refusal(["--agent", "boss", "--day", "2026-13-45"])).toBe(
      "error: --day takes YYYY-MM-DD and goes with --agent",
    );
    expect(await refusal(["--agent", "boss", "--day", "2026-02-30"])).toBe(
      "error: --day takes YYYY-MM-DD and goes with --agent",
    );
    expect(await refusal(["--session", "s1", "--day", "2026-12-01"])).toBe(
      "error: --day takes YYYY-MM-DD and goes with --agent",
    );
  });
});
