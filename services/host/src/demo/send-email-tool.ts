import { defineTool, type ToolDefinition } from "@troupe/agents";
import type { Redis } from "ioredis";
import { z } from "zod";
import { DEMO_OUTBOX_KEY, type DemoOutboxRecord } from "./demo-redis-keys.js";

/**
 * Arguments of the demo `send_email` tool.
 *
 * Shape: `{ to: string (an email address), subject: string (1–200 characters), body: string }`.
 */
export const sendEmailInputSchema = z.object({
  to: z.email().describe("The recipient's email address."),
  subject: z.string().trim().min(1).max(200).describe("Subject line."),
  body: z.string().max(10_000).describe("The message."),
});
/** See {@link sendEmailInputSchema}. */
export type SendEmailInput = z.infer<typeof sendEmailInputSchema>;

/**
 * What `send_email` returns.
 *
 * Shape: `{ sent: true, to: string, subject: string }`.
 */
export interface SendEmailResult {
  readonly sent: true;
  readonly to: string;
  readonly subject: string;
}

/** What the `send_email` tool needs. */
export interface SendEmailToolOptions {
  /** Where the {@link DemoOutboxRecord} goes (`RPUSH` to {@link DEMO_OUTBOX_KEY}). */
  readonly redis: Redis;
  /** Receives one line per email; default: standard error. */
  readonly log?: ((line: string) => void) | undefined;
  /** The current time, Unix ms; default `Date.now`. */
  readonly nowMs?: (() => number) | undefined;
}

/**
 * The demo `send_email` tool (`non_idempotent_write`, so the default tool
 * policy asks the user before each call). It sends nothing: it logs one line
 * and appends a {@link DemoOutboxRecord} to the Redis list {@link DEMO_OUTBOX_KEY}.
 *
 * @param options - see {@link SendEmailToolOptions}.
 */
export function sendEmailTool(
  options: SendEmailToolOptions,
): ToolDefinition<typeof sendEmailInputSchema> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const nowMs = options.nowMs ?? Date.now;
  return defineTool({
    name: "send_email",
    description: "Sends an email (in this demo it only lands in an outbox). Asks the user first.",
    inputSchema: sendEmailInputSchema,
    effectClass: "non_idempotent_write",
    timeoutMs: 5_000,
    execute: async ({ to, subject, body }, { idempotencyKey }): Promise<SendEmailResult> => {
      const record: DemoOutboxRecord = { to, subject, body, idempotencyKey, atMs: nowMs() };
      await options.redis.rpush(DEMO_OUTBOX_KEY, JSON.stringify(record));
      log(
        `[demo] send_email: to ${to}, subject ${JSON.stringify(subject)} (not really sent; see ${DEMO_OUTBOX_KEY})`,
      );
      return { sent: true, to, subject };
    },
  });
}
