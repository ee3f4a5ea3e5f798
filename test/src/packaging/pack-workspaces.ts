import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { runSharedFolder } from "../harness/test-run-marker.js";
import { runCommand } from "./run-command.js";

/** The repository root (where the root `package.json` lists the workspaces). */
export const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Packs workspace packages the way they would be published: one `npm pack`
 * from the repository root, which runs each package's `prepack` (a cached
 * turbo build of the package and its dependencies) first. With
 * `TROUPE_TEST_BUILT=1` (parallel rounds of `npm run test:repeat`, which built
 * already) it packs with `--ignore-scripts`: a `prepack` empties `dist/` under
 * the other rounds.
 *
 * @param packageNames - e.g. `["@troupe/protocol", "@troupe/client"]`.
 * @param destination - folder for the tarballs; created if missing.
 * @param timeoutMs - for the whole `npm pack`, builds included.
 * @returns the tarball path of each package, by name.
 * @throws Error when `npm pack` fails or a tarball is missing.
 */
export async function packWorkspaces(
  packageNames: readonly string[],
  destination: string,
  timeoutMs: number,
): Promise<Map<string, string>> {
  await mkdir(destination, { recursive: true });
  await runCommand(
    "npm",
    [
      "pack",
      ...(process.env.TROUPE_TEST_BUILT === "1" ? ["--ignore-scripts"] : []),
      "--pack-destination",
      destination,
      ...packageNames.flatMap((name) => ["--workspace", name]),
    ],
    { cwd: repositoryRoot, timeoutMs },
  );
  const files = await readdir(destination);
  return new Map(
    packageNames.map((name) => {
      // npm names the tarball of `@scope/name@1.2.3` `scope-name-1.2.3.tgz`.
      const base = name.replace(/^@/, "").replace("/", "-");
      const file = files.find((candidate) =>
        new RegExp(`^${base}-\\d+\\.\\d+\\.\\d+[^/]*\\.tgz$`).test(candidate),
      );
      if (file === undefined) {
        throw new Error(
          `npm pack wrote no tarball for ${name} in ${destination}: ${files.join(", ")}`,
        );
      }
      return [name, join(destination, file)];
    }),
  );
}

/** What the packaging tests read of a workspace's `package.json`. */
interface WorkspaceManifest {
  readonly name: string;
  readonly version?: string;
  readonly private?: boolean;
  readonly workspaces?: readonly string[];
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

/** A workspace of the repository: its folder (relative to the root) and manifest. */
export interface Workspace {
  readonly folder: string;
  readonly manifest: WorkspaceManifest;
}

const readManifest = (folder: string): WorkspaceManifest =>
  JSON.parse(
    readFileSync(join(repositoryRoot, folder, "package.json"), "utf8"),
  ) as WorkspaceManifest;

/**
 * The workspaces the root `package.json` lists, in its order. An entry is a
 * folder, or a folder pattern ending in `/*` (each subfolder with a
 * `package.json`), the two forms npm's `workspaces` takes here.
 */
export function repositoryWorkspaces(): Workspace[] {
  const patterns = readManifest(".").workspaces ?? [];
  const folders = patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -"/*".length);
    return readdirSync(join(repositoryRoot, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`)
      .filter((folder) => existsSync(join(repositoryRoot, folder, "package.json")))
      .sort();
  });
  return folders.map((folder) => ({ folder, manifest: readManifest(folder) }));
}

/**
 * The public workspaces (every workspace whose `package.json` is not
 * `"private": true`), each after the public workspaces it depends on
 * (`dependencies`, `peerDependencies`, `optionalDependencies`), otherwise in
 * the root's order.
 *
 * @throws Error when the public workspaces depend on each other in a cycle.
 */
export function publicWorkspaces(): Workspace[] {
  const published = repositoryWorkspaces().filter(({ manifest }) => manifest.private !== true);
  const byName = new Map(published.map((workspace) => [workspace.manifest.name, workspace]));
  const ordered: Workspace[] = [];
  const visiting = new Set<string>();
  const visit = (workspace: Workspace): void => {
    const { name } = workspace.manifest;
    if (ordered.includes(workspace)) return;
    if (visiting.has(name))
      throw new Error(`public workspaces depend on each other in a cycle through ${name}`);
    visiting.add(name);
    const { dependencies, peerDependencies, optionalDependencies } = workspace.manifest;
    for (const dependency of Object.keys({
      ...dependencies,
      ...peerDependencies,
      ...optionalDependencies,
    })) {
      const needed = byName.get(dependency);
      if (needed !== undefined) visit(needed);
    }
    visiting.delete(name);
    ordered.push(workspace);
  };
  for (const workspace of published) visit(workspace);
  return ordered;
}

/**
 * The packages Troupe publishes, each after those it depends on: derived from
 * the root `package.json`'s workspaces ({@link publicWorkspaces}), so that a
 * new package is packed, linted and published by the tests without a list to
 * keep.
 */
export const PUBLIC_PACKAGES: readonly string[] = publicWorkspaces().map(
  ({ manifest }) => manifest.name,
);

/** How often a test file waiting for another's `npm pack` looks, in ms. */
const PACK_POLL_MS = 250;

/**
 * The tarballs of every {@link PUBLIC_PACKAGES}, packed once per test run and
 * shared by the packaging test files: vitest may run them at the same time,
 * and two `npm pack`s would rebuild each package's `dist/` under each other.
 * The first caller creates the run's shared folder (`runSharedFolder`, an
 * atomic `mkdir`) and packs into it; the others wait for its `packed.json`
 * (or `failed.txt`). Outside a vitest run it packs into a fresh temporary folder.
 *
 * @param timeoutMs - for the pack, builds included (and for the wait).
 * @returns the tarball path of each package, by name.
 * @throws Error when `npm pack` fails (in this or the packing test file) or the wait times out.
 */
export async function packPublicPackages(timeoutMs: number): Promise<Map<string, string>> {
  const shared = runSharedFolder("tarballs");
  if (shared === undefined) {
    return packWorkspaces(
      PUBLIC_PACKAGES,
      await mkdtemp(join(tmpdir(), "troupe-tarballs-")),
      timeoutMs,
    );
  }
  const packed = join(shared, "packed.json");
  const failed = join(shared, "failed.txt");
  let owner = true;
  try {
    await mkdir(shared);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    owner = false;
  }
  if (owner) {
    try {
      const tarballs = await packWorkspaces(PUBLIC_PACKAGES, join(shared, "tgz"), timeoutMs);
      await writeFile(packed, JSON.stringify(Object.fromEntries(tarballs)));
      return tarballs;
    } catch (error) {
      await writeFile(failed, String(error));
      throw error;
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(packed)) {
      const byName = JSON.parse(await readFile(packed, "utf8")) as Record<string, string>;
      return new Map(Object.entries(byName));
    }
    if (existsSync(failed)) {
      throw new Error(`npm pack failed in another test file:\n${await readFile(failed, "utf8")}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for the packed tarballs in ${shared}`,
      );
    }
    await sleep(PACK_POLL_MS);
  }
}
