// The fingerprint of the console's sources that `vite build` writes into
// services/gateway/console-dist/source-hash.txt, and that the gateway's unit
// test recomputes to fail when the committed build is stale. It
// hashes what a build reads (src/ without tests, index.html, vite.config.ts and
// the declared dependencies and Vite's version), with line endings normalised, so it is the same
// on every machine whatever the bundler's output bytes are.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The console workspace's folder. */
export const CONSOLE_ROOT = join(import.meta.dirname, "..");

/** Name of the file in console-dist that holds the fingerprint. */
export const SOURCE_HASH_FILE = "source-hash.txt";

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.test\.tsx?$/.test(entry.name) ? [] : [path];
  });
}

/**
 * SHA-256 (hex) over the console's build inputs: each file's path relative to
 * the workspace and its text with CRLF as LF, in path order, then the
 * `dependencies` of its package.json and the Vite version it asks for.
 *
 * @param root - the console workspace (default {@link CONSOLE_ROOT}).
 * @returns 64 hex characters.
 */
export function consoleSourceHash(root = CONSOLE_ROOT) {
  const files = [
    ...filesUnder(join(root, "src")),
    join(root, "index.html"),
    join(root, "vite.config.ts"),
  ]
    .map((path) => relative(root, path).split("\\").join("/"))
    .sort();
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(join(root, file), "utf8").replace(/\r\n/g, "\n"));
    hash.update("\n\0\n");
  }
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  hash.update(JSON.stringify([pkg.dependencies ?? {}, pkg.devDependencies?.vite ?? ""]));
  return hash.digest("hex");
}
