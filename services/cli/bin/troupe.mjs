#!/usr/bin/env node
/**
 * The `troupe` command. Runs the TypeScript sources through tsx (no build
 * step), resolving the workspace packages to their sources.
 */
import { register } from "node:module";
import { register as registerTypeScript } from "tsx/esm/api";

registerTypeScript();
register("./source-conditions.mjs", import.meta.url);
await import("../src/cli/main.ts");
