/**
 * Entry of the `troupe` command (see `bin/troupe.mjs`): runs the program and
 * turns errors into one readable line and a non-zero exit code.
 */
import { TroupeError } from "@troupe/protocol";
import { CommanderError } from "commander";
import pc from "picocolors";
import { createProgram } from "./program.js";

// `troupe tail … | head` closes the pipe early: stop quietly, as Unix tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode;
  } else {
    const message =
      TroupeError.isInstance(error) || error instanceof Error ? error.message : String(error);
    process.stderr.write(`${pc.red("error:")} ${message}\n`);
    if (process.env.TROUPE_DEBUG !== undefined && error instanceof Error) {
      process.stderr.write(`${error.stack ?? ""}\n`);
    }
    process.exitCode = 1;
  }
}
