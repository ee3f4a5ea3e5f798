import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The folder of the project template: `services/cli/templates/project/` (shipped in the package). */
export const PROJECT_TEMPLATE_DIR = fileURLToPath(
  new URL("../../../templates/project/", import.meta.url),
);

/**
 * The template's files and where each goes in the project. npm leaves
 * `.gitignore` files out of packages, so the template has `gitignore`.
 */
export const TEMPLATE_FILES: readonly (readonly [template: string, target: string])[] = [
  ["agent.ts", "agent.ts"],
  ["agent.test.ts", "agent.test.ts"],
  ["tsconfig.json", "tsconfig.json"],
  ["README.md", "README.md"],
  ["gitignore", ".gitignore"],
];

/** Dependencies of a new project, by `package.json` field: name → version range. */
export interface ProjectDependencies {
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/**
 * What a project made by `troupe init` depends on: the Troupe packages its
 * code imports (`@troupe/agents`, `@troupe/client`, and `@troupe/cli` for the
 * command and `startLocalCluster`) at `^troupeVersion`, `zod` at the range the
 * CLI itself uses, and for development TypeScript, Node's types and vitest at
 * the ranges this repository uses (a unit test keeps them equal).
 *
 * @param troupeVersion - e.g. `"0.1.0"`.
 */
export function projectDependencies(troupeVersion: string): ProjectDependencies {
  const range = `^${troupeVersion}`;
  return {
    dependencies: {
      "@troupe/agents": range,
      "@troupe/cli": range,
      "@troupe/client": range,
      zod: "^4.6.7",
    },
    devDependencies: {
      "@types/node": "^20.19.43",
      typescript: "^5.9.3",
      vitest: "^4.1.12",
    },
  };
}

/** The version of this `@troupe/cli` package, from its `package.json`. */
export function cliVersion(): string {
  const manifest = JSON.parse(
    readFileSync(fileURLToPath(new URL("../../../package.json", import.meta.url)), "utf8"),
  ) as { version: string };
  return manifest.version;
}
