import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** This package's folder (`services/cli` in the repository, `node_modules/@troupe/cli` installed). */
const CLI_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The folder of the project template: `services/cli/templates/project/` (shipped in the package). */
export const PROJECT_TEMPLATE_DIR = join(CLI_ROOT, "templates", "project");

/**
 * The template's files and where each goes in the project. npm leaves
 * `.gitignore` files out of packages, so the template has `gitignore`.
 */
export const TEMPLATE_FILES: readonly (readonly [template: string, target: string])[] = [
  ["agent.ts", "agent.ts"],
  ["agent.test.ts", "agent.test.ts"],
  ["agent.eval.test.ts", "agent.eval.test.ts"],
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
 * command) at `^troupeVersion`, `zod` at the range the CLI itself uses, and
 * for development `@troupe/testkit` (its test's `createTestDeployment`) at
 * `^troupeVersion`, TypeScript, Node's types and vitest at the ranges
 * this repository uses (a unit test keeps them equal).
 *
 * @param troupeVersion - e.g. `"0.1.0"`.
 * @param localPackages - `@troupe/*` name → `file:` tarball spec
 *   ({@link localTroupePackages}); each replaces the registry range, and all of
 *   them are listed (in `dependencies`, the test kit in `devDependencies`), so
 *   that npm finds the packages the others depend on too.
 */
export function projectDependencies(
  troupeVersion: string,
  localPackages: Readonly<Record<string, string>> = {},
): ProjectDependencies {
  const range = `^${troupeVersion}`;
  const { [TESTKIT_PACKAGE]: testkit = range, ...runtimePackages } = localPackages;
  return {
    dependencies: {
      "@troupe/agents": range,
      "@troupe/cli": range,
      "@troupe/client": range,
      ...runtimePackages,
      zod: "^4.6.7",
    },
    devDependencies: {
      [TESTKIT_PACKAGE]: testkit,
      "@types/node": "^20.19.43",
      typescript: "^5.9.3",
      vitest: "^4.1.12",
    },
  };
}

/** The test kit, a development dependency of a project. */
const TESTKIT_PACKAGE = "@troupe/testkit";

/**
 * Where this CLI's Troupe packages came from, when not from the npm registry
 * (they are not published yet): `@troupe/*` name → `file:<absolute
 * path>` of a tarball.
 *
 * - Installed (`<project>/node_modules/@troupe/cli`): the `file:` specs of
 *   `@troupe/*` in `<project>/package.json` (what `npm install
 *   packed/*.tgz` wrote), made absolute.
 * - In a clone of the repository (`services/cli`): the tarballs `npm run pack`
 *   wrote to `packed/`, when there are any.
 *
 * Empty when neither applies: the project then asks the registry.
 *
 * @param cliRoot - this package's folder; default the running one.
 */
export function localTroupePackages(cliRoot = CLI_ROOT): Record<string, string> {
  const installedIn = /^(.*)[\\/]node_modules[\\/]@troupe[\\/]cli[\\/]?$/.exec(cliRoot)?.[1];
  if (installedIn !== undefined) {
    const manifest = readJson(join(installedIn, "package.json")) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    } | null;
    const listed = { ...manifest?.devDependencies, ...manifest?.dependencies };
    return Object.fromEntries(
      Object.entries(listed)
        .filter(([name, spec]) => name.startsWith("@troupe/") && spec.startsWith("file:"))
        .map(([name, spec]) => [name, `file:${resolve(installedIn, spec.slice("file:".length))}`]),
    );
  }
  const packed = join(cliRoot, "..", "..", "packed");
  if (!existsSync(packed)) return {};
  return Object.fromEntries(
    readdirSync(packed)
      .map((file) => /^troupe-([a-z-]+)-\d.*\.tgz$/.exec(file))
      .filter((match) => match !== null)
      .map((match) => [`@troupe/${match[1]}`, `file:${join(packed, match[0])}`]),
  );
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

/** The version of this `@troupe/cli` package, from its `package.json`. */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}
