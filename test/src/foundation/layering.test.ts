import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Lints `code` with the repository's ESLint config as if it lived at `path`
 * (relative to the repository root) and returns the messages of `rules`.
 * Type-aware rules are switched off: the probe file does not exist on disk,
 * and only the layering rules are under test. The files it imports do exist:
 * `import-x/no-restricted-paths` resolves each import to a file.
 */
async function ruleViolations(
  path: string,
  code: string,
  rules: readonly string[] = [
    "no-restricted-imports",
    "no-restricted-syntax",
    "import-x/no-restricted-paths",
    "import-x/no-relative-packages",
  ],
): Promise<string[]> {
  const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId !== null && rules.includes(message.ruleId))
    .map((message) => message.message);
}

describe("layering between packages: protocol ← machines ← runtime ← agents ← cli, protocol ← client ← cli", () => {
  it("refuses IO, clocks and randomness in machines/", async () => {
    const violations = await ruleViolations(
      "machines/src/session/layering-probe.ts",
      [
        'import { connect } from "@nats-io/transport-node";',
        'import { Redis } from "ioredis";',
        'import { readFile } from "node:fs/promises";',
        "export const probe = [connect, Redis, readFile, Date.now(), Math.random(), new Date()];",
        "setTimeout(() => undefined, 1);",
      ].join("\n"),
    );
    expect(violations).toHaveLength(7);
    expect(violations.join("\n")).toMatch(/no NATS/);
    expect(violations.join("\n")).toMatch(/Date\.now/);
    expect(violations.join("\n")).toMatch(/Math\.random/);
  });

  it.each([
    ["protocol/src/address/layering-probe.ts", "@troupe/machines"],
    ["machines/src/run/layering-probe.ts", "@troupe/runtime"],
    // The runtime hosts any xstate machine: it knows neither the agent machines nor agents.
    ["actors/runtime/src/host/layering-probe.ts", "@troupe/machines"],
    ["actors/runtime/src/host/layering-probe.ts", "@troupe/agents/internal"],
    // The client is light: protocol and NATS only.
    ["services/client/src/layering-probe.ts", "@troupe/runtime"],
    ["services/client/src/layering-probe.ts", "@troupe/cli"],
    ["actors/agents/src/agents/layering-probe.ts", "@troupe/cli/internal"],
    ["actors/agents/src/agents/layering-probe.ts", "@troupe/client"],
    ["services/host/src/host/layering-probe.ts", "@troupe/test"],
    // The test kit sits above the host and the dev cluster: nothing shipped may depend on it.
    ["services/host/src/host/layering-probe.ts", "@troupe/testkit"],
    // The edges and the host are libraries: none of them depends on the CLI or on each other.
    ["services/host/src/host/layering-probe.ts", "@troupe/cli"],
    ["services/host/src/host/layering-probe.ts", "@troupe/dev"],
    ["services/mcp/src/mcp/layering-probe.ts", "@troupe/cli/internal"],
    ["services/mcp/src/mcp/layering-probe.ts", "@troupe/a2a"],
    ["services/a2a/src/a2a/layering-probe.ts", "@troupe/host"],
    ["services/gateway/src/http/layering-probe.ts", "@troupe/mcp"],
    ["services/admin/src/admin/layering-probe.ts", "@troupe/cli"],
    ["actors/agents/src/agents/layering-probe.ts", "@troupe/testkit"],
  ])("refuses %s importing %s", async (path, target) => {
    const violations = await ruleViolations(path, `export * from "${target}";`);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/may not import @troupe\//);
  });

  it("refuses the same imports made dynamically or by a relative path into the package", async () => {
    const dynamic = await ruleViolations(
      "services/client/src/layering-probe.ts",
      'export const load = () => import("@troupe/runtime");',
    );
    expect(dynamic).toEqual([
      expect.stringMatching(/@troupe\/client may not import @troupe\/runtime/),
    ]);
    const relative = await ruleViolations(
      "services/client/src/layering-probe.ts",
      'export * from "../../../actors/runtime/src/index.js";',
    );
    expect(relative).toHaveLength(2);
    expect(relative.join("\n")).toMatch(/Relative import from another package/);
    expect(relative.join("\n")).toMatch(/@troupe\/client may not import @troupe\/runtime/);
  });

  it("refuses a package importing itself by name", async () => {
    const violations = await ruleViolations(
      "actors/runtime/src/step/layering-probe.ts",
      'export * from "@troupe/runtime";',
    );
    expect(violations).toEqual([expect.stringMatching(/may not import itself by name/)]);
  });

  it.each([
    ["machines/src/run/layering-probe.ts", ["@troupe/protocol"]],
    [
      "actors/runtime/src/host/layering-probe.ts",
      ["@troupe/protocol", "@troupe/protocol/internal"],
    ],
    [
      "actors/agents/src/agents/layering-probe.ts",
      ["@troupe/protocol", "@troupe/machines", "@troupe/runtime", "@troupe/runtime/internal"],
    ],
    ["services/client/src/layering-probe.ts", ["@troupe/protocol"]],
    [
      "services/host/src/host/layering-probe.ts",
      ["@troupe/agents", "@troupe/client/internal", "@troupe/runtime"],
    ],
    [
      "services/mcp/src/mcp/layering-probe.ts",
      ["@troupe/client/tasks", "@troupe/gateway", "@troupe/agents"],
    ],
    [
      "services/cli/src/cli/layering-probe.ts",
      ["@troupe/host/internal", "@troupe/dev", "@troupe/mcp", "@troupe/a2a", "@troupe/admin"],
    ],
    [
      "services/testkit/src/deployment/layering-probe.ts",
      ["@troupe/dev/internal", "@troupe/agents", "@troupe/runtime/internal", "@troupe/client"],
    ],
  ])("allows %s to import %j", async (path, targets) => {
    const code = targets.map((target) => `export * from "${target}";`).join("\n");
    expect(await ruleViolations(path, code)).toEqual([]);
  });
});

describe("layering inside a package: folders import lower layers only", () => {
  it.each([
    [
      "actors/runtime/src/stores/layering-probe.ts",
      "../host/actor-host.js",
      /stores\/ may not import host\//,
    ],
    [
      "actors/runtime/src/step/layering-probe.ts",
      "../replay/replay-actor.js",
      /step\/ may not import replay\//,
    ],
    // Peers in one layer do not import each other either.
    [
      "actors/runtime/src/replay/layering-probe.ts",
      "../host/actor-host.js",
      /replay\/ may not import host\//,
    ],
    [
      "actors/agents/src/tools/layering-probe.ts",
      "../agents/agent-registry.js",
      /tools\/ may not import agents\//,
    ],
    [
      "services/host/src/host/layering-probe.ts",
      "../process/host-action.js",
      /host\/ may not import process\//,
    ],
    ["services/host/src/process/layering-probe.ts", "../host/load-agents.js", null],
    [
      "services/dev/src/local-servers/layering-probe.ts",
      "../dev/stop-dev.js",
      /local-servers\/ may not import dev\//,
    ],
    [
      "protocol/src/v1/layering-probe.ts",
      "../codec/decode-message.js",
      /v1\/ may not import codec\//,
    ],
    [
      "machines/src/session/layering-probe.ts",
      "../run/run-machine.js",
      /session\/ may not import run\//,
    ],
  ])("%s importing %s", async (path, target, refused) => {
    const violations = await ruleViolations(path, `export * from "${target}";`);
    if (refused === null) expect(violations).toEqual([]);
    else expect(violations).toEqual([expect.stringMatching(refused)]);
  });

  it("refuses a higher folder imported dynamically", async () => {
    expect(
      await ruleViolations(
        "actors/runtime/src/stores/layering-probe.ts",
        'export const load = () => import("../host/actor-host.js");',
      ),
    ).toEqual([expect.stringMatching(/stores\/ may not import host\//)]);
  });

  it("allows imports of lower folders and within a folder", async () => {
    const code = [
      'export * from "../stores/snapshot-store.js";',
      'export * from "../step/process-message.js";',
      'export * from "./shard-worker.js";',
    ].join("\n");
    expect(await ruleViolations("actors/runtime/src/host/layering-probe.ts", code)).toEqual([]);
  });

  it("lets a unit test exercise its folder with the layers above it", async () => {
    expect(
      await ruleViolations(
        "actors/agents/src/tools/layering-probe.test.ts",
        'export * from "../agents/define-agent.js";',
      ),
    ).toEqual([]);
  });
});

describe("import cycles", () => {
  it("refuses two modules of a package that import each other", async () => {
    // import-x/no-cycle follows imports on disk, so the probe is two real files.
    const folder = `actors/runtime/src/step/cycle-probe-${process.pid}`;
    await mkdir(`${root}${folder}`, { recursive: true });
    try {
      await writeFile(
        `${root}${folder}/a.ts`,
        'import { b } from "./b.js";\nexport const a = () => b;\n',
      );
      await writeFile(
        `${root}${folder}/b.ts`,
        'import { a } from "./a.js";\nexport const b = () => a;\n',
      );
      const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
      const results = await eslint.lintFiles([`${folder}/a.ts`, `${folder}/b.ts`]);
      const cycles = results.map(
        (result) =>
          result.messages.filter((message) => message.ruleId === "import-x/no-cycle").length,
      );
      expect(cycles).toEqual([1, 1]);
    } finally {
      await rm(`${root}${folder}`, { recursive: true, force: true });
    }
  });
});
