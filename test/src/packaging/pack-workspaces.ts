import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "./run-command.js";

/** The repository root (where the root `package.json` lists the workspaces). */
export const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Packs workspace packages the way they would be published: one `npm pack`
 * from the repository root, which runs each package's `prepack` (a cached
 * turbo build of the package and its dependencies) first.
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
