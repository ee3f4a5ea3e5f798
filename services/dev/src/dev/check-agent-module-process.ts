import { spawn } from "node:child_process";
import type { HostCommand } from "./dev-host-process.js";
import { HostStartError, parseErrorLine } from "./host-start-error.js";

/**
 * Runs `troupe host --check --json --agent <module>` as a child (spawned as
 * `troupe dev` spawns its hosts) and returns the models it reports. In a child,
 * because importing an agent module may do anything (start timers, exit);
 * before any server starts, so a bad module or a missing provider key is one
 * error and nothing to stop (docs/decisions/0019).
 *
 * @param command - how to start a host process (see `HostCommand`).
 * @param agentModule - `demo`, an absolute path or a package name.
 * @param env - the child's environment (the hosts get the same).
 * @param timeoutMs - how long the check may take, in ms; default 60 000 ms.
 * @returns agent name → model, or `undefined` when the module exports a factory
 *   (the hosts check those when they start).
 * @throws HostStartError with the child's own error (code and message) when
 *   the check fails: AgentModuleError's `invalid_agent`, ModelNotConfiguredError's
 *   `model_not_configured`.
 */
export async function checkAgentModuleInProcess(
  command: HostCommand,
  agentModule: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<Record<string, string> | undefined> {
  const [executable, ...commandArgs] = command;
  const child = spawn(executable, [...commandArgs, "--check", "--json", "--agent", agentModule], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once("error", () => resolve([null, null]));
    child.once("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  clearTimeout(timer);
  const lines = stdout.split("\n").filter((line) => line !== "");
  const last = lines.at(-1) ?? "";
  if (code === 0) {
    try {
      const parsed = JSON.parse(last) as { ok?: unknown; models?: Record<string, string> | null };
      if (parsed.ok === true) return parsed.models ?? undefined;
    } catch {
      // Reported below with the child's output.
    }
  }
  const why = `check of the agent module ${signal === null ? `exited (code ${code})` : `was ended (${signal})`}`;
  throw new HostStartError(
    why,
    lines.map(parseErrorLine).find((reported) => reported !== undefined),
    [...lines, ...stderr.split("\n").filter((line) => line !== "")].slice(-30),
  );
}
