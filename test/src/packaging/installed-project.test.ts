/**
 * A project made by `troupe init` from the packed packages works outside the
 * repository (issue #13, the CI step of "Must show"): the public packages
 * are packed, installed into a fresh `npm init -y` project in the system's
 * temporary folder, `npx troupe init` turns it into a Troupe project (its own
 * `npm install` adds vitest, TypeScript, Node's types and zod), and then
 *
 * - the project's generated test passes (`npx vitest run`: the agent against
 *   real servers through `@troupe/testkit`'s `createTestDeployment`), and so does
 *   the test kit's example test (`examples/support-agent.test.ts`, shipped in the
 *   package) copied into the project: approvals, a denial and a 24 h approval
 *   timeout on the controllable clock (issue #14, "the test kit's example test,
 *   copied into a fresh project outside the repo, passes");
 * - `npx tsc` passes with the types resolving from the packages' `.d.ts`
 *   (a probe file's `@ts-expect-error` lines fail the check if they were `any`);
 * - `troupe dev --agent ./agent.ts` serves the TypeScript agent without flags,
 *   `npx troupe send … --wait` prints the answer, and a plain Node ESM script
 *   (`import { TroupeClient } from "@troupe/client"`) talks to it.
 */
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { waitFor } from "../support/wait-for.js";
import { packPublicPackages, PUBLIC_PACKAGES } from "./pack-workspaces.js";
import { cleanEnvironment, runCommand, secondsSince } from "./run-command.js";

/** `npm pack` of the public packages with their turbo builds; a cold build takes ~60 s here. */
const PACK_TIMEOUT_MS = 240_000;
/** One `npm install` (tarballs, or the registry packages init adds; from npm's cache when it has them). */
const INSTALL_TIMEOUT_MS = 180_000;
const VITEST_TIMEOUT_MS = 120_000;
const TSC_TIMEOUT_MS = 90_000;
const DEV_READY_TIMEOUT_MS = 90_000;
const SEND_TIMEOUT_MS = 60_000;

/** The probe of the user's types: each `@ts-expect-error` needs a real type error below it. */
const TYPES_PROBE = `import { defineTool } from "@troupe/agents";
import { startLocalCluster } from "@troupe/dev";
import { TroupeClient } from "@troupe/client";
import { z } from "zod";
import agent, { convertTemperature } from "./agent.js";

export const names: string[] = [agent.name, convertTemperature.name];

export const probe = defineTool({
  name: "probe",
  description: "a tool whose execute misuses its input",
  inputSchema: z.object({ value: z.number() }),
  effectClass: "read",
  // @ts-expect-error: value is a number (from the zod schema), it has no toUpperCase
  execute: async ({ value }) => value.toUpperCase(),
});

export async function misuse(client: TroupeClient): Promise<void> {
  // @ts-expect-error: a session id is a string
  await client.sendAndWait(42, "hello");
  // @ts-expect-error: agents is required
  await startLocalCluster({});
}
`;

/** A plain Node ESM app: asks the running agent (found without a URL) a question through the client. */
const CLIENT_APP = `import { TroupeClient } from "@troupe/client";

// No URL: finds the running troupe dev through $TROUPE_HOME/dev.json, as the CLI does.
const client = await TroupeClient.connect();
try {
  const outcome = await client.sendAndWait("client-app", "what is 100 C in F?", { timeoutMs: 30_000 });
  process.stdout.write(\`result \${JSON.stringify({ status: outcome.status, text: outcome.text })}\\n\`);
} finally {
  await client.close();
}
`;

/** The README's agent module, as a user writes it in a project `npm init -y` made (CommonJS). */
const COMMONJS_AGENT = `import { defineAgent, defineTool } from "@troupe/agents";
import { z } from "zod";

export default defineAgent({
  name: "support",
  instructions: "Help the user with their order.",
  model: "scripted:demo",
  tools: [
    defineTool({
      name: "order_status",
      description: "Looks up an order.",
      inputSchema: z.object({ orderId: z.string() }),
      effectClass: "read",
      execute: async ({ orderId }) => ({ orderId, status: "shipped" }),
    }),
  ],
});
`;

/** Seconds since `startMs`, one decimal. */

describe("a project made by `troupe init` from the packed packages, outside the repository", () => {
  let workspace: string | undefined;
  let project: string;
  let home: string;
  let initOutput: string;
  let tarballPaths: Map<string, string>;
  /** Seconds each setup step took, reported once. */
  const timings: Record<string, number> = {};
  /** The environment of the project's commands: npm's cache first, no inherited Troupe URLs. */
  const env = () => ({ TROUPE_HOME: home, NO_COLOR: "1", npm_config_prefer_offline: "true" });

  beforeAll(
    async () => {
      workspace = await mkdtemp(join(tmpdir(), `${testRunMarker()}installed-project-`));
      project = join(workspace, "my-agents");
      home = join(workspace, "troupe-home");
      await mkdir(project);
      let startMs = Date.now();
      tarballPaths = await packPublicPackages(PACK_TIMEOUT_MS);
      timings["npm pack (the public packages, builds included; or the wait for it)"] =
        secondsSince(startMs);

      // As a user: an npm project, the Troupe packages (here the tarballs), then init.
      await runCommand("npm", ["init", "-y"], { cwd: project, timeoutMs: 30_000, env: env() });
      startMs = Date.now();
      await runCommand(
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          ...PUBLIC_PACKAGES.map((name) => tarballPaths.get(name)!),
        ],
        { cwd: project, timeoutMs: INSTALL_TIMEOUT_MS, env: env() },
      );
      timings["npm install (the public tarballs)"] = secondsSince(startMs);
      startMs = Date.now();
      ({ stdout: initOutput } = await runCommand("npx", ["--no", "troupe", "init"], {
        cwd: project,
        timeoutMs: INSTALL_TIMEOUT_MS,
        env: env(),
      }));
      timings["npx troupe init (its npm install included)"] = secondsSince(startMs);
    },
    PACK_TIMEOUT_MS + 2 * INSTALL_TIMEOUT_MS + 30_000,
  );

  afterAll(async () => {
    process.stderr.write(`installed-project timings (s): ${JSON.stringify(timings)}\n`);
    if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
  });

  it("each tarball holds dist/ with JavaScript and declarations, no tests and no sources", async () => {
    for (const name of PUBLIC_PACKAGES) {
      const { stdout } = await runCommand("tar", ["-tzf", tarballPaths.get(name)!], {
        cwd: workspace!,
        timeoutMs: 30_000,
      });
      const files = stdout.split("\n").filter((line) => line !== "");
      const top = [...new Set(files.map((file) => file.split("/")[1]))].sort();
      expect(top, name).toEqual(
        name === "@troupe/cli"
          ? ["README.md", "bin", "dist", "package.json", "templates"]
          : name === "@troupe/testkit"
            ? ["README.md", "dist", "examples", "package.json"]
            : name === "@troupe/gateway"
              ? ["README.md", "console-dist", "dist", "package.json"]
              : ["README.md", "dist", "package.json"],
      );
      if (name === "@troupe/gateway") {
        // The web console ships built (issue #16): `troupe dev` serves it with no build step.
        expect(files).toEqual(expect.arrayContaining(["package/console-dist/index.html"]));
      }
      expect(files, name).toEqual(
        expect.arrayContaining(["package/dist/index.js", "package/dist/index.d.ts"]),
      );
      expect(
        files.filter((file) => file.startsWith("package/dist/") && /\.test\./.test(file)),
        name,
      ).toEqual([]);
    }
  });

  it("init writes the project, keeps the installed tarballs and installs what it adds", async () => {
    const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8")) as {
      type: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.type).toBe("module");
    expect(manifest.scripts).toEqual({
      dev: "troupe dev --agent ./agent.ts",
      test: "vitest run",
      typecheck: "tsc",
    });
    for (const name of ["@troupe/agents", "@troupe/cli", "@troupe/client", "@troupe/testkit"]) {
      expect(manifest.dependencies[name], name).toMatch(/^file:.*\.tgz$/);
    }
    expect(manifest.dependencies["zod"]).toBe("^4.6.7");
    expect(Object.keys(manifest.devDependencies).sort()).toEqual([
      "@types/node",
      "typescript",
      "vitest",
    ]);
    expect(initOutput).toContain("created a Troupe project in .: agent.ts, agent.test.ts");
    expect(initOutput).toContain("npm run dev");
    // init's npm install put vitest in.
    await expect(
      readFile(join(project, "node_modules/vitest/package.json"), "utf8"),
    ).resolves.toBeTruthy();
  });

  it(
    "init of another folder from the project installs the same tarballs (the packages are not on the registry)",
    async () => {
      const { stdout } = await runCommand("npx", ["--no", "troupe", "init", "../second"], {
        cwd: project,
        timeoutMs: INSTALL_TIMEOUT_MS,
        env: env(),
      });
      expect(stdout).toContain("✔ installed");
      const manifest = JSON.parse(
        await readFile(join(workspace!, "second", "package.json"), "utf8"),
      ) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
      for (const name of PUBLIC_PACKAGES) {
        // The test kit is for the project's tests: a development dependency.
        const field = name === "@troupe/testkit" ? "devDependencies" : "dependencies";
        expect(manifest[field][name], name).toBe(`file:${tarballPaths.get(name)!}`);
      }
      await expect(
        readFile(join(workspace!, "second", "node_modules/@troupe/agents/package.json"), "utf8"),
      ).resolves.toContain('"version"');
    },
    INSTALL_TIMEOUT_MS + 10_000,
  );

  it(
    "passes the project's generated test and the test kit's example test, copied in (npx vitest run), against real servers",
    async () => {
      // As a user copies it: from the installed package into the project (one run for both files).
      await copyFile(
        join(project, "node_modules/@troupe/testkit/examples/support-agent.test.ts"),
        join(project, "support-agent.test.ts"),
      );
      const startMs = Date.now();
      const { stdout } = await runCommand("npx", ["--no", "vitest", "run"], {
        cwd: project,
        timeoutMs: VITEST_TIMEOUT_MS,
        env: { ...env(), CI: "1" },
      });
      timings["npx vitest run (the generated test and the example)"] = secondsSince(startMs);
      expect(stdout).toMatch(/✓ agent\.test\.ts \(1 test\)/);
      expect(stdout).toMatch(/✓ support-agent\.test\.ts \(3 tests\)/);
      expect(stdout).toMatch(/✓ agent\.eval\.test\.ts \(1 test\)/);
      expect(stdout).toMatch(/Tests\s+5 passed \(5\)/);
    },
    VITEST_TIMEOUT_MS + 10_000,
  );

  it(
    "type-checks with the user's tsc, the packages' types resolving",
    async () => {
      await writeFile(join(project, "types-probe.ts"), TYPES_PROBE);
      try {
        const startMs = Date.now();
        await runCommand("npx", ["--no", "tsc"], {
          cwd: project,
          timeoutMs: TSC_TIMEOUT_MS,
          env: env(),
        });
        timings["npx tsc"] = secondsSince(startMs);
      } finally {
        await rm(join(project, "types-probe.ts"));
      }
    },
    TSC_TIMEOUT_MS + 10_000,
  );

  it(
    "loads a TypeScript agent from a CommonJS package (what npm init -y writes) without flags",
    async () => {
      // A folder of its own whose package.json says "commonjs"; the packages resolve from the project's node_modules.
      const folder = join(project, "commonjs-agent");
      await mkdir(folder);
      await writeFile(join(folder, "package.json"), JSON.stringify({ type: "commonjs" }));
      await writeFile(join(folder, "agent.ts"), COMMONJS_AGENT);
      const { stdout } = await runCommand(
        "npx",
        ["--no", "troupe", "host", "--check", "--json", "--agent", "./commonjs-agent/agent.ts"],
        { cwd: project, timeoutMs: SEND_TIMEOUT_MS, env: env() },
      );
      expect(JSON.parse(stdout)).toEqual({ ok: true, models: { support: "scripted:demo" } });
    },
    SEND_TIMEOUT_MS + 10_000,
  );

  it(
    "serves agent.ts with troupe dev; npx troupe send --wait and a plain Node ESM client get answers",
    async () => {
      // The installed bin, run as npm's .bin shim runs it (a direct child, so SIGINT reaches it).
      const bin = join(project, "node_modules/@troupe/cli/bin/troupe.mjs");
      const dev = spawn(
        process.execPath,
        [
          bin,
          "dev",
          "--agent",
          "./agent.ts",
          "--hosts",
          "1",
          "--nats-port",
          "0",
          "--redis-port",
          "0",
          "--gateway-port",
          "0",
        ],
        { cwd: project, env: cleanEnvironment(env()), stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      dev.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      dev.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      const exited = new Promise<number | null>((resolve) => dev.once("close", resolve));
      let hasExited = false;
      void exited.then(() => (hasExited = true));
      try {
        await waitFor(() => hasExited || output.includes("Troupe is running"), {
          timeoutMs: DEV_READY_TIMEOUT_MS,
          description: "the troupe dev banner",
        });
        expect(hasExited, output).toBe(false);
        expect(output).toContain("agents: assistant");
        // The installed gateway serves the web console built into its package (issue #16).
        await waitFor(() => /web +http:\/\/127\.0\.0\.1:\d+\//.test(output), {
          timeoutMs: 10_000,
          description: "the web line of the banner",
        });
        const consoleUrl = /web +(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)![1]!;
        const page = await fetch(consoleUrl);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("<title>");

        const sent = await runCommand(
          "npx",
          ["--no", "troupe", "send", "s1", "what is 77 F in C?", "--wait"],
          { cwd: project, timeoutMs: SEND_TIMEOUT_MS, env: env() },
        );
        expect(sent.stdout).toContain("25 °C is 77 °F.");

        await writeFile(join(project, "client-app.mjs"), CLIENT_APP);
        const app = await runCommand(process.execPath, ["client-app.mjs"], {
          cwd: project,
          timeoutMs: SEND_TIMEOUT_MS,
          env: env(),
        });
        expect(app.stdout).toContain(
          `result ${JSON.stringify({ status: "completed", text: "100 °C is 212 °F." })}`,
        );
      } finally {
        if (!hasExited) dev.kill("SIGINT");
        const timer = setTimeout(() => dev.kill("SIGKILL"), 30_000);
        await exited;
        clearTimeout(timer);
      }
      expect(output).toContain("stopped");
    },
    DEV_READY_TIMEOUT_MS + 2 * SEND_TIMEOUT_MS + 40_000,
  );
});
