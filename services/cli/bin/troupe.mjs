#!/usr/bin/env node
/**
 * The `troupe` command, in one of two modes (docs/decisions/0017):
 *
 * - **repository**: next to the TypeScript sources (`../src/cli/main.ts`
 *   exists, as in a clone of the repository) it runs them through tsx and
 *   resolves the workspace packages to their sources (the `@troupe/source`
 *   export condition): no build step.
 * - **installed**: the published package has no `src/`, so it runs the build,
 *   `../dist/cli/main.js`, and the packages resolve to their `dist/` as usual.
 *
 * `TROUPE_CLI_MODE=dist` runs the build in the repository too (after
 * `npm run build`). Either way tsx's ESM and CommonJS loaders are registered, so
 * a TypeScript agent module (`troupe dev --agent ./agent.ts`) loads without
 * flags, also in a project whose package.json says `"type": "commonjs"` (what
 * `npm init -y` writes; the ESM loader alone fails there with
 * ERR_REQUIRE_CYCLE_MODULE). The host processes `troupe dev` starts run this
 * file again, in the same mode.
 */
import { existsSync } from "node:fs";
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import { register as registerTypeScriptCommonJs } from "tsx/cjs/api";
import { register as registerTypeScript } from "tsx/esm/api";

const sources = new URL("../src/cli/main.ts", import.meta.url);
const fromSources = process.env.TROUPE_CLI_MODE !== "dist" && existsSync(fileURLToPath(sources));

registerTypeScript();
registerTypeScriptCommonJs();
if (fromSources) {
  register("./source-conditions.mjs", import.meta.url);
  await import(sources.href);
} else {
  await import(new URL("../dist/cli/main.js", import.meta.url).href);
}
