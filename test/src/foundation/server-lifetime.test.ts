import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { findServerBinary } from "@troupe/dev";
import { describe, expect, test } from "vitest";
import { testDataDirPrefix } from "../harness/test-run-marker.js";

const fixture = fileURLToPath(new URL("./fixtures/start-nats-then-linger.ts", import.meta.url));
const tsxLoader = createRequire(import.meta.url).resolve("tsx");

interface StartedServer {
  readonly pid: number;
  readonly dataDir: string;
}

/**
 * Whether `pid` is a live process. A server whose parent died is re-parented and
 * stays a zombie until the new parent reaps it (about 1.5 s in some containers);
 * a zombie has exited, so it counts as gone.
 */
function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (isProcessRunning(pid)) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** Runs the fixture in a separate Node.js process and reads the server it started. */
async function startServerInChildProcess(ending: "exit" | "linger") {
  const parent = spawn(
    process.execPath,
    [
      "--conditions=@troupe/source",
      "--import",
      tsxLoader,
      fixture,
      testDataDirPrefix("nats"),
      ending,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => parent.once("exit", resolve));
  const lines = createInterface({ input: parent.stdout });
  const firstLine = await Promise.race([
    new Promise<string>((resolve) => lines.once("line", resolve)),
    exited.then((code) => {
      throw new Error(`fixture exited with ${String(code)} before printing its server`);
    }),
  ]);
  lines.close();
  return { parent, exited, server: JSON.parse(firstLine) as StartedServer };
}

describe.skipIf(findServerBinary("nats-server") === undefined)("local server lifetime", () => {
  test("a local nats-server does not outlive a parent process killed with SIGKILL", async () => {
    const { parent, server } = await startServerInChildProcess("linger");
    try {
      expect(isProcessRunning(server.pid)).toBe(true);

      parent.kill("SIGKILL");

      expect(await waitUntilGone(server.pid, 8_000)).toBe(true);
    } finally {
      if (isProcessRunning(server.pid)) process.kill(server.pid, "SIGKILL");
      // A parent killed with SIGKILL cannot remove its folder; the test does.
      await rm(server.dataDir, { recursive: true, force: true });
    }
  });

  test("a local nats-server does not outlive a parent that calls process.exit()", async () => {
    const { exited, server } = await startServerInChildProcess("exit");
    try {
      expect(await exited).toBe(0);

      expect(await waitUntilGone(server.pid, 8_000)).toBe(true);
    } finally {
      if (isProcessRunning(server.pid)) process.kill(server.pid, "SIGKILL");
      await rm(server.dataDir, { recursive: true, force: true });
    }
  });
});
