#!/usr/bin/env node
// `npm run pack`: the tarballs of every public package in packed/, one
// `npm pack` from the repository root (each package's `prepack` builds it
// first). The public packages are the workspaces of the root package.json
// whose package.json is not "private": true, so a new package is packed
// without editing a list.
//
//   node infra/pack-public-packages.mjs          pack into packed/
//   node infra/pack-public-packages.mjs --list   print the package names, one a line
//
// Plain JavaScript on purpose, like ensure-servers.mjs: it runs with no build.
// test/src/packaging/pack-script.test.ts checks that it names the same
// packages as the packaging tests.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** @param {string} folder @returns {{ name: string, private?: boolean, workspaces?: string[] }} */
const manifest = (folder) => JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8"));

/** The workspace folders, an entry ending in `/*` standing for each subfolder with a package.json. */
const folders = (manifest(".").workspaces ?? []).flatMap((pattern) => {
  if (!pattern.endsWith("/*")) return [pattern];
  const parent = pattern.slice(0, -2);
  return readdirSync(join(root, parent), { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, "package.json")),
    )
    .map((entry) => `${parent}/${entry.name}`)
    .sort();
});
const names = folders
  .map(manifest)
  .filter((workspace) => workspace.private !== true)
  .map((workspace) => workspace.name);

if (process.argv.includes("--list")) {
  process.stdout.write(names.map((name) => `${name}\n`).join(""));
} else {
  const packed = join(root, "packed");
  rmSync(packed, { recursive: true, force: true });
  mkdirSync(packed);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(
    npm,
    ["pack", "--pack-destination", packed, ...names.flatMap((name) => ["-w", name])],
    { cwd: root, stdio: "inherit", shell: process.platform === "win32" },
  );
  process.exit(result.status ?? 1);
}
