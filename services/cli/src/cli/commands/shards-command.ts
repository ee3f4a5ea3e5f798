import { Command } from "commander";
import { connectionOptions, positiveInteger } from "@troupe/host/internal";
import type { ShardsResizeOptions } from "./shards-resize-action.js";

/**
 * `troupe shards resize --to <count>`: raises the shard count of a live
 * deployment (docs/decisions/0035; the operator procedure is in
 * docs/design.md, "Changing the shard count").
 */
export function shardsCommand(): Command {
  const shards = new Command("shards").description("the deployment's shards");
  shards.addCommand(
    connectionOptions(new Command("resize"))
      .description(
        "raise the shard count of a live deployment: pauses processing (not publishing), waits " +
          "for nats-server to be reloaded with the new mapping, moves timers, then hosts started " +
          "with the new count take over without losing or reordering any actor's messages",
      )
      .requiredOption(
        "--to <count>",
        "the new shard count (above the current one)",
        positiveInteger,
      )
      .option(
        "--pause-timeout <ms>",
        "longest wait for the hosts to release their shards",
        positiveInteger,
        60_000,
      )
      .option(
        "--mapping-timeout <ms>",
        "longest wait for nats-server to map with the new count",
        positiveInteger,
        600_000,
      )
      .action(async (options: ShardsResizeOptions) => {
        const { shardsResizeAction } = await import("./shards-resize-action.js");
        await shardsResizeAction(options);
      }),
  );
  return shards;
}
