import { spawn } from "node:child_process";

/**
 * Runs `npm install --no-audit --no-fund` in `dir`, its output going to this
 * process's terminal (npm's own configuration applies: registry, cache,
 * `prefer-offline`, …).
 *
 * @param dir - the project folder.
 * @throws Error when npm cannot be started or exits non-zero.
 */
export async function installDependencies(dir: string): Promise<void> {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const child = spawn(npm, ["install", "--no-audit", "--no-fund"], {
    cwd: dir,
    stdio: ["ignore", "inherit", "inherit"],
    shell: process.platform === "win32",
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) {
    throw new Error(
      `npm install in ${dir} exited with ${String(code)}; the files are written: ` +
        "fix the problem above and run npm install there",
    );
  }
}
