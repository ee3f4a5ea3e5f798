import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PUBLIC_PACKAGES, repositoryRoot } from "./pack-workspaces.js";

// `npm run pack` is how a user gets the tarballs the README installs; npm skips
// a `-w` it does not know without a word, so a typo there once left
// `@troupe/client` out and broke "Start a project" (issue #14's new-user trial).

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly workspaces?: readonly string[];
  readonly scripts?: Record<string, string>;
}

const readPackage = (folder: string): PackageJson =>
  JSON.parse(readFileSync(join(repositoryRoot, folder, "package.json"), "utf8")) as PackageJson;

describe("npm run pack", () => {
  const root = readPackage(".");

  it("packs exactly the public packages, each once", () => {
    const packed = [...(root.scripts?.["pack"] ?? "").matchAll(/-w (\S+)/g)].map((m) => m[1]);
    expect(packed).toEqual([...PUBLIC_PACKAGES]);
  });

  it("the public packages are every workspace that is not private", () => {
    const published = (root.workspaces ?? [])
      .map(readPackage)
      .filter((workspace) => workspace.private !== true)
      .map((workspace) => workspace.name);
    expect(new Set(published)).toEqual(new Set(PUBLIC_PACKAGES));
  });
});
