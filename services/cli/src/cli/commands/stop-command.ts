import { Command, Option } from "commander";
import { positiveInteger } from "@troupe/host/internal";

/**
 * `troupe stop`: stops the `troupe dev` running for this TROUPE_HOME from
 * another terminal (e.g. one started in the background), as Ctrl-C would
 * (docs/decisions/0019). Exit code 1 when none runs or it did not exit within `--timeout`.
 */
export function stopCommand(): Command {
  return new Command("stop")
    .description(
      "stop the running troupe dev of this TROUPE_HOME (as Ctrl-C: the hosts drain, then the servers stop)",
    )
    .addOption(
      new Option("--timeout <ms>", "how long to wait for it to exit, in ms")
        .default(60_000)
        .argParser(positiveInteger),
    )
    .action(async (options: { timeout: number }) => {
      const { stopDev } = await import("@troupe/dev/internal");
      const { state, exited } = await stopDev(options.timeout);
      if (exited) {
        process.stdout.write(`stopped troupe dev (pid ${state.pid})\n`);
      } else {
        process.stderr.write(
          `troupe dev (pid ${state.pid}) is still stopping after ${options.timeout} ms; ` +
            `kill -9 ${state.pid} ends it at once\n`,
        );
        process.exitCode = 1;
      }
    });
}
