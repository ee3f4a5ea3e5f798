import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { ProjectExistsError } from "./project-exists-error.js";
import {
  PROJECT_TEMPLATE_DIR,
  projectDependencies,
  TEMPLATE_FILES,
  type ProjectDependencies,
} from "./project-template.js";

/**
 * What a folder may already hold for `troupe init` to use it: an npm project
 * that has no code yet (`npm init -y`, perhaps `npm i @troupe/cli`), a git
 * repository, editor and npm settings.
 */
export const ALLOWED_EXISTING = [
  "package.json",
  "package-lock.json",
  "node_modules",
  ".git",
  ".gitignore",
  ".npmrc",
  ".nvmrc",
  ".DS_Store",
] as const;

/** Options of {@link initProject}. */
export interface InitProjectOptions {
  /** The project folder (absolute); created when missing. */
  readonly dir: string;
  /** Version of `@troupe/*` the project depends on (`^<version>`): the CLI's own. */
  readonly troupeVersion: string;
  /** Versions of the other packages; default {@link projectDependencies}. */
  readonly dependencies?: ProjectDependencies;
}

/** What {@link initProject} did. */
export interface InitProjectResult {
  readonly dir: string;
  /** Files written, relative to `dir`, in order (`package.json` last). */
  readonly written: readonly string[];
  /** Whether `package.json` existed before (it was updated, not replaced). */
  readonly hadPackageJson: boolean;
  /** Packages added to `package.json` that it did not list (`name@range`), to install. */
  readonly added: readonly string[];
}

/** The subset of `package.json` that {@link initProject} reads and writes. */
interface PackageJson {
  name?: string;
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** The `test` script `npm init -y` writes, which init replaces. */
const NPM_INIT_TEST_SCRIPT = 'echo "Error: no test specified" && exit 1';

/**
 * Creates a Troupe project in `dir` (docs/decisions/0017): `agent.ts` (one agent with one
 * tool, an offline scripted model), `agent.test.ts` (vitest, against real
 * servers through `startLocalCluster`), `tsconfig.json` (NodeNext), `README.md`,
 * `.gitignore`, and `package.json` with `"type": "module"`, the scripts `dev`,
 * `test` and `typecheck`, and the dependencies. An existing `package.json` is
 * updated: scripts and dependencies it already has are kept (except `npm init
 * -y`'s failing `test` script). Installs nothing: see the `init` command.
 *
 * @param options - folder, versions.
 * @returns what was written and which packages were added.
 * @throws ProjectExistsError when `dir` holds anything but {@link ALLOWED_EXISTING}
 *   (nothing is written then).
 * @throws Error when an existing `package.json` is not a JSON object.
 */
export async function initProject(options: InitProjectOptions): Promise<InitProjectResult> {
  const { dir } = options;
  await mkdir(dir, { recursive: true });
  const existing = await readdir(dir);
  const allowed: readonly string[] = ALLOWED_EXISTING;
  const unexpected = existing.filter((entry) => !allowed.includes(entry)).sort();
  if (unexpected.length > 0) throw new ProjectExistsError(dir, unexpected);

  const hadPackageJson = existing.includes("package.json");
  const manifest: PackageJson = hadPackageJson
    ? parseManifest(await readFile(join(dir, "package.json"), "utf8"), dir)
    : { name: packageName(basename(dir)), version: "0.1.0", private: true };

  const written: string[] = [];
  for (const [template, target] of TEMPLATE_FILES) {
    // A `.gitignore` the folder has (a git repository) is kept.
    if (existing.includes(target)) continue;
    await copyFile(join(PROJECT_TEMPLATE_DIR, template), join(dir, target));
    written.push(target);
  }

  manifest.type = "module";
  const scripts = { ...manifest.scripts };
  if (scripts["test"] === NPM_INIT_TEST_SCRIPT) delete scripts["test"];
  manifest.scripts = {
    dev: "troupe dev --agent ./agent.ts",
    test: "vitest run",
    typecheck: "tsc",
    ...scripts,
  };
  const wanted = options.dependencies ?? projectDependencies(options.troupeVersion);
  const added: string[] = [];
  for (const field of ["dependencies", "devDependencies"] as const) {
    const listed = { ...manifest[field] };
    for (const [name, range] of Object.entries(wanted[field])) {
      if (manifest.dependencies?.[name] !== undefined) continue;
      if (manifest.devDependencies?.[name] !== undefined) continue;
      listed[name] = range;
      added.push(`${name}@${range}`);
    }
    manifest[field] = Object.fromEntries(
      Object.entries(listed).sort(([a], [b]) => a.localeCompare(b)),
    );
  }
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  written.push("package.json");
  return { dir, written, hadPackageJson, added };
}

function parseManifest(text: string, dir: string): PackageJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${join(dir, "package.json")} is not valid JSON`, { cause: error });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${join(dir, "package.json")} is not a JSON object`);
  }
  return parsed as PackageJson;
}

/**
 * An npm package name from a folder name: lower case, characters npm refuses
 * replaced by `-`.
 *
 * @example packageName("My Agents!") // "my-agents"
 */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[-._]+|-+$/g, "");
  return name === "" ? "troupe-project" : name;
}
