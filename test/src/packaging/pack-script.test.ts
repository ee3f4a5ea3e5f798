import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PUBLIC_PACKAGES, repositoryRoot, repositoryWorkspaces } from "./pack-workspaces.js";
import { runCommand } from "./run-command.js";

// `npm run pack` is how a user gets the tarballs the README installs; npm skips
// a `-w` it does not know without a word, so a typo in a hand-kept list once
// left `@troupe/client` out and broke "Start a project" (issue #14's new-user
// trial). The script now derives the packages from the workspaces.

const rootScripts = (
  JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  }
).scripts;

describe("npm run pack", () => {
  it("runs the script that derives the packages from the workspaces", () => {
    expect(rootScripts?.["pack"]).toBe("node infra/pack-public-packages.mjs");
  });

  it("packs exactly the public packages, each once", async () => {
    const { stdout } = await runCommand("node", ["infra/pack-public-packages.mjs", "--list"], {
      cwd: repositoryRoot,
      timeoutMs: 30_000,
    });
    const packed = stdout.split("\n").filter((line) => line !== "");
    expect(packed).toHaveLength(new Set(packed).size);
    expect(new Set(packed)).toEqual(new Set(PUBLIC_PACKAGES));
  });

  it("the public packages are the workspaces that are not private", () => {
    const workspaces = repositoryWorkspaces();
    expect(PUBLIC_PACKAGES).toEqual(
      expect.arrayContaining([
        "@troupe/agents",
        "@troupe/cli",
        "@troupe/client",
        "@troupe/testkit",
      ]),
    );
    for (const { manifest } of workspaces) {
      expect(PUBLIC_PACKAGES.includes(manifest.name), manifest.name).toBe(
        manifest.private !== true,
      );
    }
    // The private ones: the test suites and the web console (built into the gateway's package).
    expect(PUBLIC_PACKAGES).not.toContain("@troupe/test");
    expect(PUBLIC_PACKAGES).not.toContain("@troupe/console");
  });

  it("lists each public package after the public packages it depends on", () => {
    const manifests = new Map(
      repositoryWorkspaces().map(({ manifest }) => [manifest.name, manifest]),
    );
    PUBLIC_PACKAGES.forEach((name, index) => {
      const { dependencies = {}, peerDependencies = {} } = manifests.get(name)!;
      for (const dependency of Object.keys({ ...dependencies, ...peerDependencies })) {
        if (!PUBLIC_PACKAGES.includes(dependency)) continue;
        expect(PUBLIC_PACKAGES.indexOf(dependency), `${dependency} before ${name}`).toBeLessThan(
          index,
        );
      }
    });
  });
});
