import { readFile, readdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repositoryWorkspaces } from "../packaging/pack-workspaces.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const sourceFolders = [
  "addressing/src",
  "protocol/src",
  "machines/src",
  "actors/step/src",
  "actors/stores/src",
  "actors/replay/src",
  "actors/runtime/src",
  "actors/models/src",
  "actors/tools/src",
  "actors/agents/src",
  "services/client/src",
  "services/gateway/src",
  "services/host/src",
  "services/admin/src",
  "services/dev/src",
  "services/mcp/src",
  "services/a2a/src",
  "services/cli/src",
  "services/testkit/src",
  "test/src",
];

/** Relative import, re-export and dynamic `import()` specifiers of a module, type-only ones included. */
function relativeSpecifiers(source: string): string[] {
  const fromClause = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\.{1,2}\/[^"']+)["']/g;
  const dynamic = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
  return [...source.matchAll(fromClause), ...source.matchAll(dynamic)].map(
    (match) => match[1] ?? "",
  );
}

/**
 * Groups of modules that import each other (strongly connected components of
 * more than one module, or a module importing itself), by Tarjan's algorithm.
 *
 * @param graph - module → the modules it imports.
 * @returns each cycle's modules, sorted.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, next);
    low.set(module, next);
    next += 1;
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module)!, index.get(target)!));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || (graph.get(module) ?? []).includes(module)) {
      cycles.push(component.sort());
    }
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return cycles;
}

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe("import graph", () => {
  it("finds a cycle of type-only imports, and none in a chain", () => {
    expect(
      importCycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", ["a.ts"]],
          ["d.ts", ["a.ts"]],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      importCycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
    expect(
      importCycles(
        new Map(
          Object.entries({ "a.ts": relativeSpecifiers('import type { B } from "./b.js";') }).map(
            ([key, specifiers]) => [
              key,
              specifiers.map((specifier) => specifier.slice(2).replace(/\.js$/, ".ts")),
            ],
          ),
        ).set("b.ts", ["a.ts"]),
      ),
    ).toEqual([["a.ts", "b.ts"]]);
  });

  it("has no cycle in any package, counting type-only imports", async () => {
    const graph = new Map<string, string[]>();
    for (const folder of sourceFolders) {
      for (const file of await sourceFiles(folder)) {
        const source = await readFile(join(root, file), "utf8");
        graph.set(
          file,
          relativeSpecifiers(source).map((specifier) =>
            relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, ".ts"),
          ),
        );
      }
    }
    expect(graph.size).toBeGreaterThan(300);
    expect(importCycles(graph)).toEqual([]);
  });

  it("has no cycle between packages, and nothing shipped depends on the CLI", () => {
    const dependencies = new Map(
      repositoryWorkspaces()
        .filter(({ manifest }) => manifest.private !== true)
        .map(({ manifest }) => [
          manifest.name,
          Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith("@troupe/")),
        ]),
    );
    expect(importCycles(dependencies)).toEqual([]);
    const dependents = [...dependencies]
      .filter(([, names]) => names.includes("@troupe/cli"))
      .map(([name]) => name);
    expect(dependents).toEqual([]);
    // The command layer stands on the edges and the host, not the reverse.
    expect(dependencies.get("@troupe/cli")).toEqual(
      expect.arrayContaining([
        "@troupe/host",
        "@troupe/dev",
        "@troupe/admin",
        "@troupe/mcp",
        "@troupe/a2a",
        "@troupe/gateway",
      ]),
    );
    for (const edge of ["@troupe/mcp", "@troupe/a2a", "@troupe/gateway"]) {
      expect(dependencies.get(edge)).not.toContain("@troupe/host");
      expect(dependencies.get(edge)).not.toContain("@troupe/dev");
    }
    // The core packages point one way: each facade stands on its parts, no part on its facade.
    const parts: [string, string[]][] = [
      ["@troupe/protocol", ["@troupe/addressing"]],
      ["@troupe/runtime", ["@troupe/step", "@troupe/stores", "@troupe/replay"]],
      ["@troupe/agents", ["@troupe/tools", "@troupe/models"]],
    ];
    for (const [facade, below] of parts) {
      expect(dependencies.get(facade)).toEqual(expect.arrayContaining(below));
      for (const part of below) expect(dependencies.get(part), part).not.toContain(facade);
    }
    expect(dependencies.get("@troupe/addressing")).toEqual([]);
    expect(dependencies.get("@troupe/step")).toEqual(["@troupe/protocol"]);
  });
});
