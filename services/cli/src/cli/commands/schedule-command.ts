import { Command, Option } from "commander";
import pc from "picocolors";
import { ScheduleRejectedError } from "@troupe/client";
import { connectionOptions, nonNegativeInteger, positiveInteger } from "@troupe/host/internal";
import type { ConnectionFlags } from "@troupe/host/internal";
import { withClient } from "../with-client.js";
import { formatScheduleList, scheduleCreateInput, type ScheduleFlags } from "./schedule-input.js";

interface ScheduleCommandFlags extends ConnectionFlags, ScheduleFlags {
  readonly json?: boolean;
  readonly timeout: number;
}

/**
 * `troupe schedule add | at | list | cancel` (docs/capabilities/schedules.md):
 * durable cron and one-shot schedules that send a message to a session.
 * Exit code 1 when the schedule (or the local check before sending) refuses
 * the command, or no host answered within `--timeout`.
 */
export function scheduleCommand(): Command {
  const schedule = new Command("schedule").description(
    "durable cron and one-shot schedules that send a message to a session",
  );
  schedule.addCommand(
    withCreateOptions(
      connectionOptions(
        new Command("add")
          .description("send <text> to <sessionId> at every tick of <cron> (5 or 6 fields)")
          .argument("<sessionId>", "the session that receives the messages")
          .argument("<cron>", 'cron pattern, e.g. "0 9 * * 1-5" (quote it)')
          .argument("<text...>", "the message text")
          .addOption(new Option("--tz <zone>", "IANA time zone of the pattern (default: UTC)")),
      ),
    ).action(async (sessionId: string, cron: string, text: string[], flags: ScheduleCommandFlags) =>
      create(sessionId, { cron }, text.join(" "), flags),
    ),
  );
  schedule.addCommand(
    withCreateOptions(
      connectionOptions(
        new Command("at")
          .description("send <text> to <sessionId> once at <time> (ISO 8601)")
          .argument("<sessionId>", "the session that receives the message")
          .argument("<time>", "when, e.g. 2026-12-24T18:00:00+01:00")
          .argument("<text...>", "the message text"),
      ),
    ).action(async (sessionId: string, at: string, text: string[], flags: ScheduleCommandFlags) =>
      create(sessionId, { at }, text.join(" "), flags),
    ),
  );
  schedule.addCommand(
    connectionOptions(
      new Command("list")
        .description("list schedules with their status and next tick")
        .option("--session <sessionId>", "only the schedules of one session")
        .addOption(
          new Option("--status <status>", "only schedules in this status").choices([
            "active",
            "completed",
            "cancelled",
          ]),
        )
        .option("--json", "print the entries as JSON"),
    ).action(
      async (flags: ConnectionFlags & { session?: string; status?: "active"; json?: boolean }) => {
        const entries = await withClient(flags, (client) =>
          client.schedules.list({
            ...(flags.session === undefined ? {} : { sessionId: flags.session }),
            ...(flags.status === undefined ? {} : { status: flags.status }),
          }),
        );
        process.stdout.write(
          flags.json === true ? `${JSON.stringify(entries)}\n` : `${formatScheduleList(entries)}\n`,
        );
      },
    ),
  );
  schedule.addCommand(
    connectionOptions(
      new Command("cancel")
        .description("cancel a schedule: no tick fires after it")
        .argument("<scheduleId>", "the schedule")
        .option("--reason <text>", "why, kept in schedule.cancelled")
        .addOption(timeoutOption())
        .option("--json", "print the schedule.cancelled payload as JSON"),
    ).action(async (scheduleId: string, flags: ScheduleCommandFlags & { reason?: string }) => {
      await report(flags, async () => {
        const cancelled = await withClient(flags, (client) =>
          client.schedules.cancel(scheduleId, {
            timeoutMs: flags.timeout,
            ...(flags.reason === undefined ? {} : { reason: flags.reason }),
          }),
        );
        return { payload: cancelled, line: `cancelled schedule ${scheduleId}` };
      });
    }),
  );
  return schedule;
}

function timeoutOption(): Option {
  return new Option("--timeout <ms>", "how long to wait for the schedule's answer, in ms")
    .default(10_000)
    .argParser(positiveInteger);
}

function withCreateOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--catch-up <policy>", "ticks missed while no host ran: skip or once")
        .choices(["skip", "once"])
        .default("skip"),
    )
    .option("--id <scheduleId>", "the schedule's id (default: a random sch-… id)")
    .addOption(
      new Option(
        "--misfire-threshold <ms>",
        "how late a firing may be and still count as on time, in ms (default 60000)",
      ).argParser(nonNegativeInteger),
    )
    .option("--agent <name>", "the agent the session runs for these messages")
    .addOption(timeoutOption())
    .option("--json", "print the schedule.created payload as JSON");
}

async function create(
  sessionId: string,
  when: { cron: string } | { at: string },
  text: string,
  flags: ScheduleCommandFlags,
): Promise<void> {
  await report(flags, async () => {
    const input = scheduleCreateInput(sessionId, when, text, flags, Date.now());
    const created = await withClient(flags, (client) =>
      client.schedules.create(input, { timeoutMs: flags.timeout }),
    );
    return {
      payload: created,
      line: `schedule ${created.scheduleId} → ${sessionId}, next tick ${new Date(created.nextTickMs).toISOString()}`,
    };
  });
}

async function report(
  flags: { readonly json?: boolean },
  run: () => Promise<{ payload: object; line: string }>,
): Promise<void> {
  try {
    const { payload, line } = await run();
    process.stdout.write(
      flags.json === true
        ? `${JSON.stringify({ ok: true, ...payload })}\n`
        : `${pc.green("✔")} ${line}\n`,
    );
  } catch (error) {
    if (!ScheduleRejectedError.isInstance(error)) throw error;
    process.exitCode = 1;
    if (flags.json === true) {
      process.stdout.write(
        `${JSON.stringify({ ok: false, scheduleId: error.scheduleId, code: error.rejectionCode, reason: error.reason })}\n`,
      );
    } else {
      process.stderr.write(`${pc.red("error:")} ${error.message}\n`);
    }
  }
}
