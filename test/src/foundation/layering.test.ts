import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Lints `code` with the repository's ESLint config as if it lived at `path`
 * (relative to the repository root). Type-aware rules are switched off: the probe
 * file does not exist on disk, and only the layering rules are under test.
 */
async function ruleViolations(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter(
      (message) =>
        message.ruleId === "no-restricted-imports" || message.ruleId === "no-restricted-syntax",
    )
    .map((message) => message.message);
}

describe("layering: protocol ← machines ← actors ← services", () => {
  it("refuses IO, clocks and randomness in machines/", async () => {
    const violations = await ruleViolations(
      "machines/src/host-actions/layering-probe.ts",
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

  it("refuses imports against the dependency direction", async () => {
    expect(
      await ruleViolations(
        "protocol/src/address/layering-probe.ts",
        'export * from "@troupe/machines";',
      ),
    ).toHaveLength(1);
    expect(
      await ruleViolations(
        "machines/src/host-actions/layering-probe.ts",
        'export * from "@troupe/actors";',
      ),
    ).toHaveLength(1);
    expect(
      await ruleViolations(
        "actors/src/host/layering-probe.ts",
        'export * from "@troupe/services";',
      ),
    ).toHaveLength(1);
  });

  it("allows imports along the dependency direction", async () => {
    expect(
      await ruleViolations(
        "actors/src/host/layering-probe.ts",
        'export * from "@troupe/protocol";\nexport * from "@troupe/machines";',
      ),
    ).toEqual([]);
    expect(
      await ruleViolations(
        "services/src/host/layering-probe.ts",
        'export * from "@troupe/actors";',
      ),
    ).toEqual([]);
  });
});
