import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { DependencyTree, type DependencyNode } from "./dependency-tree.js";
import { runCommand } from "./run-command.js";

/** Prefix of the one line a packaging app prints its result on. */
const RESULT_PREFIX = "result ";

/**
 * A fresh npm project outside the repository, as a user would make one: its
 * own `package.json` (`"type": "module"`), dependencies installed by npm, code
 * run by a plain `node` (no tsx, no loader, no export conditions).
 */
export class NpmProject {
  private constructor(readonly dir: string) {}

  /**
   * Creates the folder and its `package.json` (what `npm init -y` writes, plus
   * `"type": "module"`).
   *
   * @param dir - an empty or missing folder; its name becomes the package name.
   */
  static async create(dir: string): Promise<NpmProject> {
    await mkdir(dir, { recursive: true });
    const manifest = { name: basename(dir), version: "1.0.0", private: true, type: "module" };
    await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    return new NpmProject(dir);
  }

  /**
   * `npm install --prefer-offline --no-audit --no-fund <specs…>`: the npm cache
   * answers what it holds, the registry the rest.
   *
   * @param specs - tarball paths and `name@range` specs.
   * @param timeoutMs - for the whole install.
   */
  async install(specs: readonly string[], timeoutMs: number): Promise<void> {
    await runCommand(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--no-progress", ...specs],
      { cwd: this.dir, timeoutMs },
    );
  }

  /**
   * The installed production tree: `npm ls --omit=dev --all --json`.
   *
   * @param timeoutMs - for `npm ls`.
   * @throws Error when `npm ls` reports a problem (it then exits non-zero).
   */
  async productionTree(timeoutMs: number): Promise<DependencyTree> {
    const { stdout } = await runCommand("npm", ["ls", "--omit=dev", "--all", "--json"], {
      cwd: this.dir,
      timeoutMs,
    });
    return new DependencyTree(JSON.parse(stdout) as DependencyNode);
  }

  /**
   * Imports modules by specifier with a plain `node`, from the project.
   *
   * @param specifiers - e.g. `["@troupe/client", "@troupe/client/internal"]`.
   * @param timeoutMs - for the `node` process.
   * @returns the sorted export names of each module, by specifier.
   */
  async exportNames(
    specifiers: readonly string[],
    timeoutMs: number,
  ): Promise<Record<string, string[]>> {
    const script = [
      `const specifiers = ${JSON.stringify(specifiers)};`,
      "const names = {};",
      "for (const specifier of specifiers) names[specifier] = Object.keys(await import(specifier)).sort();",
      `process.stdout.write(${JSON.stringify(RESULT_PREFIX)} + JSON.stringify(names) + "\\n");`,
    ].join("\n");
    const { stdout } = await runCommand(
      process.execPath,
      ["--input-type=module", "--eval", script],
      { cwd: this.dir, timeoutMs },
    );
    return parseResult(stdout) as Record<string, string[]>;
  }

  /**
   * Copies an app into the project and runs it with a plain `node`.
   *
   * @param appFile - path of an `.mjs` file that prints one `result <json>` line.
   * @param env - its configuration (added to the environment).
   * @param timeoutMs - the process is killed after this many ms.
   * @returns the parsed JSON of the result line.
   * @throws Error with the app's output when it fails, times out or prints no result.
   */
  async runApp(
    appFile: string,
    env: Readonly<Record<string, string>>,
    timeoutMs: number,
  ): Promise<unknown> {
    const target = join(this.dir, basename(appFile));
    await copyFile(appFile, target);
    const { stdout, stderr } = await runCommand(process.execPath, [target], {
      cwd: this.dir,
      timeoutMs,
      env,
    });
    try {
      return parseResult(stdout);
    } catch (error) {
      throw new Error(`${basename(appFile)}: ${(error as Error).message}\n--- stderr\n${stderr}`, {
        cause: error,
      });
    }
  }
}

/** The JSON of the last `result <json>` line of `stdout`. */
function parseResult(stdout: string): unknown {
  const line = stdout
    .split("\n")
    .filter((candidate) => candidate.startsWith(RESULT_PREFIX))
    .at(-1);
  if (line === undefined) throw new Error(`no "${RESULT_PREFIX}…" line in:\n${stdout}`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as unknown;
}
