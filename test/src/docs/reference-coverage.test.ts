/**
 * The hand-written reference pages cover what the code defines: every event
 * type of `builtinEventSchemas` has a section in `docs/reference/events.md`
 * naming each field of its payload, and `docs/reference/settings.md` names
 * every host setting of `hostSettingsSchema` and every `TROUPE_*` environment
 * variable the packages read. A new event, field, setting or variable fails
 * here until it is documented.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { builtinEventSchemas } from "@troupe/protocol";
import { hostSettingsSchema } from "@troupe/runtime";
import { describe, expect, test } from "vitest";
import {
  packageFolders,
  readRepositoryFile,
  repositoryFilesUnder,
  repositoryRoot,
} from "./markdown-files.js";

/** The `### \`type\`` sections of a Markdown text, by heading. */
function sections(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const parts = text.split(/^### /m).slice(1);
  for (const part of parts) {
    const heading = /^`([^`]+)`/.exec(part)?.[1];
    if (heading !== undefined) found.set(heading, part);
  }
  return found;
}

/** The source files of every workspace but `test` (`<workspace>/src/**\/*.ts` but tests, and `bin/*.mjs`). */
async function packageSources(): Promise<string[]> {
  const files: string[] = [];
  for (const workspace of await packageFolders()) {
    for (const folder of ["src", "bin"]) {
      const found = await repositoryFilesUnder(`${workspace}/${folder}`);
      files.push(...found.filter((file) => /\.(ts|mjs)$/.test(file) && !/\.test\.ts$/.test(file)));
    }
  }
  return files;
}

/** `TROUPE_*` names the code reads: quoted names and `process.env.X` / `env.X`, comments left out. */
function variablesRead(source: string): string[] {
  const code = source
    .split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .join("\n");
  const quoted = [...code.matchAll(/["'`](TROUPE_[A-Z0-9_]+)["'`]/g)].map((match) => match[1]);
  const accessed = [...code.matchAll(/\benv\.(TROUPE_[A-Z0-9_]+)/g)].map((match) => match[1]);
  return [...quoted, ...accessed].filter((name): name is string => name !== undefined);
}

describe("the reference pages cover the code", () => {
  test("every event type has a section in docs/reference/events.md naming each payload field", async () => {
    const found = sections(await readRepositoryFile("docs/reference/events.md"));
    const missing: string[] = [];
    for (const [type, schema] of Object.entries(builtinEventSchemas)) {
      const section = found.get(type);
      if (section === undefined) {
        missing.push(`${type}: no "### \`${type}\`" section`);
        continue;
      }
      for (const field of Object.keys(schema.shape)) {
        if (!new RegExp(`\`${field}\\??\``).test(section)) missing.push(`${type}: field ${field}`);
      }
    }
    expect(found.size).toBeGreaterThanOrEqual(Object.keys(builtinEventSchemas).length);
    expect(missing, `undocumented in docs/reference/events.md:\n${missing.join("\n")}`).toEqual([]);
  });

  test("every host setting is a row of docs/reference/settings.md", async () => {
    const settings = await readRepositoryFile("docs/reference/settings.md");
    const missing = Object.keys(hostSettingsSchema.shape).filter(
      (name) => !settings.includes(`| \`${name}\``),
    );

    expect(missing, "host settings missing from docs/reference/settings.md").toEqual([]);
  });

  test("every TROUPE_* variable the packages read is in docs/reference/settings.md", async () => {
    const settings = await readRepositoryFile("docs/reference/settings.md");
    const read = new Set<string>();
    for (const file of await packageSources()) {
      // A probe file of layering.test.ts (run beside this file) may be gone already.
      const source = await readFile(join(repositoryRoot, file), "utf8").catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return "";
          throw error;
        },
      );
      for (const name of variablesRead(source)) read.add(name);
    }
    const missing = [...read].filter((name) => !settings.includes(`\`${name}\``)).sort();

    expect(read.size).toBeGreaterThan(30);
    expect(missing, "variables missing from docs/reference/settings.md").toEqual([]);
  });
});
