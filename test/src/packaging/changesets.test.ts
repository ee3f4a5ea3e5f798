/**
 * The release configuration (`.changeset/config.json`) and the pending
 * changesets fit the workspaces (decision 0052): read with changesets' own
 * parser and validation, so a pattern that names no package, a changeset for a
 * package that does not exist or is private, or a public package left out of
 * the one version all share fails here rather than at release time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readConfig } from "@changesets/config";
import { readChangesets } from "@changesets/read";
import { describe, expect, it } from "vitest";
import { PUBLIC_PACKAGES, repositoryRoot, repositoryWorkspaces } from "./pack-workspaces.js";

const privatePackages = repositoryWorkspaces()
  .filter(({ manifest }) => manifest.private === true)
  .map(({ manifest }) => manifest.name);

describe("the changesets configuration", () => {
  it("is valid, and each of its package patterns names a workspace", async () => {
    const { config, errors, warnings } = await readConfig(repositoryRoot);
    expect(errors).toBeUndefined();
    // changesets only warns about a fixed or linked pattern that matches no package…
    expect(warnings).toEqual([]);
    // …and silently drops an `ignore` entry that matches none.
    const written = JSON.parse(
      readFileSync(join(repositoryRoot, ".changeset", "config.json"), "utf8"),
    ) as { ignore?: string[] };
    for (const entry of written.ignore ?? []) {
      if (/[*?[\]{}!]/.test(entry)) continue;
      expect(config?.ignore, `ignore: ${entry}`).toContain(entry);
    }
  });

  it("versions every public package together, publishes them publicly and never releases a private one", async () => {
    const { config } = await readConfig(repositoryRoot);
    expect(config?.access).toBe("public");
    const groups = (config?.fixed ?? []).filter((group) =>
      group.some((name) => PUBLIC_PACKAGES.includes(name)),
    );
    // One group holds them all (private members are never versioned, below).
    expect(groups).toHaveLength(1);
    expect(new Set(groups[0]!.filter((name) => PUBLIC_PACKAGES.includes(name)))).toEqual(
      new Set(PUBLIC_PACKAGES),
    );
    expect(config?.privatePackages).toEqual({ version: false, tag: false });
    for (const name of config?.ignore ?? []) expect(privatePackages, name).toContain(name);
    expect(config?.ignore).toEqual(expect.arrayContaining(["@troupe/test"]));
  });

  it("has pending changesets that name only public packages, each with a summary", async () => {
    const changesets = await readChangesets(repositoryRoot);
    for (const changeset of changesets) {
      expect(changeset.summary.trim(), changeset.id).not.toBe("");
      for (const release of changeset.releases) {
        expect(PUBLIC_PACKAGES, `${changeset.id} names ${release.name}`).toContain(release.name);
      }
    }
  });

  it("has the root scripts of the release steps", () => {
    const { scripts = {}, devDependencies = {} } = JSON.parse(
      readFileSync(join(repositoryRoot, "package.json"), "utf8"),
    ) as { scripts?: Record<string, string>; devDependencies?: Record<string, string> };
    expect(devDependencies).toHaveProperty("@changesets/cli");
    expect(scripts["changeset"]).toBe("changeset");
    // The lockfile holds the workspaces' versions: it must follow `changeset version`.
    expect(scripts["version-packages"]).toMatch(
      /^changeset version && npm install --package-lock-only\b/,
    );
    expect(scripts["release"]).toMatch(/build && changeset publish$/);
  });
});
