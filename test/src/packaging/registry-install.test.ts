/**
 * The packages install **by name** from a registry (issue #33, "Releases",
 * and its Must show "the local-registry install test passing in CI"; decision
 * 0052): every public package, packed as for publishing, is published to a
 * Verdaccio on loopback (`local-registry.ts`: no uplinks, so it holds only
 * what this test published), and a fresh `npm init -y` project in the system's
 * temporary folder sends the `@troupe` scope there through its `.npmrc`
 * (everything else comes from the usual registry). Then, as a user:
 *
 *     npm install @troupe/cli @troupe/agents @troupe/client
 *     npx troupe init
 *     npm test
 *
 * and the project's lockfile shows where each package came from. Unlike
 * `installed-project.test.ts` (tarball paths), nothing here names a file: npm
 * resolves the names, the ranges `troupe init` writes (`^<version>`), and the
 * packages' dependencies on each other, through the registry.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { LocalRegistry } from "./local-registry.js";
import { packPublicPackages, PUBLIC_PACKAGES, publicWorkspaces } from "./pack-workspaces.js";
import { runCommand, secondsSince } from "./run-command.js";

/** `npm pack` of the public packages with their turbo builds (or the wait for the global setup's). */
const PACK_TIMEOUT_MS = 240_000;
/** Verdaccio's start, until `/-/ping` answers (~2–3 s here). */
const REGISTRY_START_TIMEOUT_MS = 60_000;
const PUBLISH_TIMEOUT_MS = 60_000;
/** One `npm install` (the three packages and their trees, or what init adds). */
const INSTALL_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 120_000;

/** What the user installs by name. */
const INSTALLED_BY_NAME = ["@troupe/cli", "@troupe/agents", "@troupe/client"] as const;

/** The version of each public package in the workspaces (what was packed and published). */
const workspaceVersions = new Map(
  publicWorkspaces().map(({ manifest }) => [manifest.name, manifest.version ?? ""]),
);

/** Seconds since `startMs`, one decimal. */

/** What the test reads of the project's `package-lock.json`. */
interface Lockfile {
  readonly packages: Readonly<
    Record<
      string,
      { readonly version?: string; readonly resolved?: string; readonly link?: boolean }
    >
  >;
}

describe("the public packages published to a local registry, installed by name into a fresh project", () => {
  let workspace: string | undefined;
  let registry: LocalRegistry | undefined;
  let project: string;
  let home: string;
  let initOutput: string;
  /** Seconds each setup step took, reported once. */
  const timings: Record<string, number> = {};
  /**
   * The environment of the project's commands. Not `prefer-offline`: npm's
   * cache may hold a package document from an earlier run's registry on the
   * same port, which npm must ask again.
   */
  const env = () => ({ TROUPE_HOME: home, NO_COLOR: "1" });

  beforeAll(
    async () => {
      workspace = await mkdtemp(join(tmpdir(), `${testRunMarker()}registry-install-`));
      project = join(workspace, "my-agents");
      home = join(workspace, "troupe-home");
      await mkdir(project);
      let startMs = Date.now();
      const tarballs = await packPublicPackages(PACK_TIMEOUT_MS);
      timings["npm pack (builds included; or the wait for it)"] = secondsSince(startMs);

      startMs = Date.now();
      registry = await LocalRegistry.start(join(workspace, "registry"), REGISTRY_START_TIMEOUT_MS);
      timings["Verdaccio start (until /-/ping answers)"] = secondsSince(startMs);
      startMs = Date.now();
      // Each after the packages it depends on, as a release publishes them.
      for (const name of PUBLIC_PACKAGES) {
        await registry.publish(tarballs.get(name)!, PUBLISH_TIMEOUT_MS);
      }
      timings[`npm publish (${PUBLIC_PACKAGES.length} packages)`] = secondsSince(startMs);

      // As a user: an npm project whose .npmrc sends the @troupe scope to the registry.
      await runCommand("npm", ["init", "-y"], { cwd: project, timeoutMs: 30_000, env: env() });
      await writeFile(
        join(project, ".npmrc"),
        [
          `@troupe:registry=${registry.url}`,
          // Keep each package's origin in package-lock.json (a user configuration may leave it out).
          "omit-lockfile-registry-resolved=false",
          "",
        ].join("\n"),
      );
      startMs = Date.now();
      await runCommand("npm", ["install", "--no-audit", "--no-fund", ...INSTALLED_BY_NAME], {
        cwd: project,
        timeoutMs: INSTALL_TIMEOUT_MS,
        env: env(),
      });
      timings["npm install @troupe/cli @troupe/agents @troupe/client"] = secondsSince(startMs);
      startMs = Date.now();
      ({ stdout: initOutput } = await runCommand("npx", ["--no", "troupe", "init"], {
        cwd: project,
        timeoutMs: INSTALL_TIMEOUT_MS,
        env: env(),
      }));
      timings["npx troupe init (its npm install included)"] = secondsSince(startMs);
    },
    PACK_TIMEOUT_MS +
      REGISTRY_START_TIMEOUT_MS +
      PUBLIC_PACKAGES.length * PUBLISH_TIMEOUT_MS +
      2 * INSTALL_TIMEOUT_MS +
      30_000,
  );

  afterAll(async () => {
    process.stderr.write(`registry-install timings (s): ${JSON.stringify(timings)}\n`);
    await registry?.stop();
    if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
  }, 30_000);

  it("the registry holds every public package at its workspace version, and nothing it was not given", async () => {
    for (const name of PUBLIC_PACKAGES) {
      const packument = await registry!.packument(name);
      const version = workspaceVersions.get(name)!;
      expect(packument?.["dist-tags"]["latest"], name).toBe(version);
      expect(packument?.versions[version]?.dist.tarball, name).toMatch(
        new RegExp(`^${registry!.url}`),
      );
    }
    // No uplink: a package from elsewhere is not there, even one the project installed.
    expect(await registry!.packument("zod")).toBeUndefined();
  });

  it("npm resolved every @troupe package from the local registry, and the rest from the usual one", async () => {
    const lockfile = JSON.parse(
      await readFile(join(project, "package-lock.json"), "utf8"),
    ) as Lockfile;
    const troupeEntries = Object.entries(lockfile.packages).filter(([path]) =>
      /(^|\/)node_modules\/@troupe\//.test(path),
    );
    const installed = new Set(troupeEntries.map(([path]) => path.replace(/^.*node_modules\//, "")));
    // What the user asked for, what init added (the test kit) and what those depend on.
    expect([...installed]).toEqual(
      expect.arrayContaining([...INSTALLED_BY_NAME, "@troupe/testkit", "@troupe/protocol"]),
    );
    for (const name of installed) expect(PUBLIC_PACKAGES, name).toContain(name);
    for (const [path, entry] of troupeEntries) {
      const name = path.replace(/^.*node_modules\//, "");
      expect(entry.link, path).toBeUndefined();
      expect(entry.version, path).toBe(workspaceVersions.get(name));
      expect(entry.resolved, path).toBe(
        `${registry!.url}${name}/-/${name.split("/")[1]}-${entry.version}.tgz`,
      );
    }
    const zod = lockfile.packages["node_modules/zod"];
    expect(zod?.resolved).toMatch(/^https?:\/\//);
    expect(zod?.resolved).not.toMatch(new RegExp(`^${registry!.url}`));
  });

  it("troupe init wrote the project with registry ranges of the packages, not files", async () => {
    const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8")) as {
      type: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.type).toBe("module");
    expect(manifest.scripts["test"]).toBe("vitest run");
    for (const name of INSTALLED_BY_NAME) {
      expect(manifest.dependencies[name], name).toBe(`^${workspaceVersions.get(name)}`);
    }
    expect(manifest.devDependencies["@troupe/testkit"]).toBe(
      `^${workspaceVersions.get("@troupe/testkit")}`,
    );
    expect(initOutput).toContain("created a Troupe project in .: agent.ts, agent.test.ts");
  });

  it(
    "the generated project's tests pass (npm test), against real servers",
    async () => {
      const startMs = Date.now();
      const { stdout } = await runCommand("npm", ["test"], {
        cwd: project,
        timeoutMs: TEST_TIMEOUT_MS,
        env: { ...env(), CI: "1" },
      });
      timings["npm test (the generated test)"] = secondsSince(startMs);
      expect(stdout).toMatch(/✓ agent\.test\.ts \(\d+ tests?\)/);
      // The evaluation example: three cases, each scored, printed as a table.
      expect(stdout).toMatch(/✓ agent\.eval\.test\.ts \(1 test\)/);
      expect(stdout).toMatch(/mean\s+1\.00\s+1\.00\s+3\/3/);
      expect(stdout).toMatch(/Tests\s+(\d+) passed \(\1\)/);
      expect(stdout).not.toMatch(/failed/);
    },
    TEST_TIMEOUT_MS + 10_000,
  );
});
