import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentModuleError } from "./agent-module-error.js";
import { loadAgents, type AgentModuleContext } from "./load-agents.js";

// Modules are plain .mjs files: loadAgents checks the shape defineAgent gives
// (name, instructions, tools), so no import of @troupe/agents is needed.
const agent = (name: string) => `{ name: "${name}", instructions: "i", tools: {} }`;
let folder: string;
const context = {
  redis: {} as Redis,
  natsUrl: "nats://127.0.0.1:4222",
  redisUrl: "redis://127.0.0.1:6379",
  log: () => undefined,
} satisfies AgentModuleContext;

async function moduleWith(name: string, source: string): Promise<string> {
  const path = join(folder, `${name}.mjs`);
  await writeFile(path, source);
  return path;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "troupe-unit-agents-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("loadAgents", () => {
  it("reads a default export, an array, an `agents` export and a (async) factory", async () => {
    const names = async (path: string) =>
      (await loadAgents(path, context)).map((loaded) => loaded.name);
    expect(await names(await moduleWith("one", `export default ${agent("a")};`))).toEqual(["a"]);
    expect(
      await names(await moduleWith("many", `export default [${agent("a")}, ${agent("b")}];`)),
    ).toEqual(["a", "b"]);
    expect(
      await names(await moduleWith("named", `export const agents = [${agent("c")}];`)),
    ).toEqual(["c"]);
    expect(
      await names(
        await moduleWith(
          "factory",
          `export default async (context) => [{ ...${agent("x")}, name: context.natsUrl.slice(0, 4) }];`,
        ),
      ),
    ).toEqual(["nats"]);
  });

  it("names the module and what is wrong when it exports no agents", async () => {
    const noExport = await moduleWith("nothing", "export const other = 1;");
    await expect(loadAgents(noExport, context)).rejects.toThrow(
      /exports neither "default" nor "agents" \(found: other\)/,
    );
    const notAgents = await moduleWith("wrong", "export default [{ name: 1 }];");
    const error = await loadAgents(notAgents, context).catch((caught: unknown) => caught);
    expect(AgentModuleError.isInstance(error)).toBe(true);
    expect((error as AgentModuleError).modulePath).toBe(notAgents);
    await expect(loadAgents(join(folder, "missing.mjs"), context)).rejects.toThrow(
      /cannot be imported/,
    );
  });
});
