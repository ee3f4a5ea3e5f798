/**
 * Entry of the `troupe` command (see `bin/troupe.mjs`): runs the program and
 * turns errors into one readable line and exit code 1. With `--json`, stdout
 * also gets `{"ok":false,"error":{"code","message"}}`, so a program reading it
 * always finds one JSON document.
 */
import { messageWithCauses, TroupeError } from "@troupe/protocol";
import { CommanderError } from "commander";
import pc from "picocolors";
import { isNatsTimeout } from "./cluster-loss.js";
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
    // Usage errors thrown by commander itself (it printed them).
    process.exit(error.exitCode);
  }
  // The error's message and its causes', each once.
  let message = error instanceof Error ? messageWithCauses(error) : String(error);
  // nats.js says only "timeout": say what timed out and what to do.
  if (isNatsTimeout(error) && message === "timeout") {
    message =
      "a request to NATS timed out: the server stopped or does not answer. Check it with " +
      "`npx troupe status`; start one with `npx troupe dev`.";
  }
  process.stderr.write(`${pc.red("error:")} ${message}\n`);
  if (process.env.TROUPE_DEBUG !== undefined && error instanceof Error) {
    process.stderr.write(`${error.stack ?? ""}\n`);
  }
  if (process.argv.includes("--json")) {
    // A RangeError is a value the user gave that the command refuses (an empty
    // text, a file that cannot be read): not a fault of Troupe.
    const code = TroupeError.isInstance(error)
      ? error.code
      : error instanceof RangeError
        ? "invalid_options"
        : "internal";
    process.stdout.write(`${JSON.stringify({ ok: false, error: { code, message } })}\n`);
  }
  // Exit now: a half-started host or client may hold connections that would
  // keep the process alive after the error.
  process.exit(1);
}
