import { fileURLToPath } from "node:url";
import type { HostCommand } from "@troupe/dev";

/**
 * Path of the `troupe` executable script (runs the sources in the repository,
 * the build when installed: see bin/troupe.mjs).
 */
export const troupeBinPath = fileURLToPath(new URL("../../bin/troupe.mjs", import.meta.url));

/** `troupe host` as the dev cluster starts it: this Node.js, this `troupe`. */
export const troupeHostCommand: HostCommand = [process.execPath, troupeBinPath, "host"];
