import { defineTool, type ToolDefinition } from "@troupe/agents";
import type { Redis } from "ioredis";
import { z } from "zod";
import { DEMO_NOTES_KEY } from "./demo-redis-keys.js";

/**
 * Arguments of the demo `save_note` tool.
 *
 * Shape: `{ title: string (1–200 characters), text: string (1–10 000 characters) }`.
 */
export const saveNoteInputSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe("Short title; saving the same title again replaces the note."),
  text: z.string().min(1).max(10_000).describe("The note itself."),
});
/** See {@link saveNoteInputSchema}. */
export type SaveNoteInput = z.infer<typeof saveNoteInputSchema>;

/**
 * What `save_note` returns.
 *
 * Shape: `{ saved: string, notes: number }`: the title, and how many notes the hash holds now.
 */
export interface SaveNoteResult {
  readonly saved: string;
  readonly notes: number;
}

/**
 * Saves a note in the Redis hash {@link DEMO_NOTES_KEY} (`HSET title text`, then `HLEN`, in one
 * `MULTI`). Saving the same note again changes nothing: an idempotent write.
 *
 * @param redis - the Redis client.
 * @param input - title and text.
 * @returns the title and the number of notes.
 * @throws whatever ioredis throws when Redis fails.
 */
export async function saveNote(redis: Redis, input: SaveNoteInput): Promise<SaveNoteResult> {
  const results = await redis
    .multi()
    .hset(DEMO_NOTES_KEY, input.title, input.text)
    .hlen(DEMO_NOTES_KEY)
    .exec();
  const [, count] = results?.[1] ?? [];
  if (typeof count !== "number") throw new Error("Redis did not answer HLEN for the demo notes");
  return { saved: input.title, notes: count };
}

/**
 * The demo `save_note` tool (`idempotent_write`): see {@link saveNote}.
 *
 * @param redis - the Redis client the tool writes with.
 */
export function saveNoteTool(redis: Redis): ToolDefinition<typeof saveNoteInputSchema> {
  return defineTool({
    name: "save_note",
    description: "Saves a note under a title (saving a title again replaces its note).",
    inputSchema: saveNoteInputSchema,
    effectClass: "idempotent_write",
    timeoutMs: 5_000,
    execute: (input) => saveNote(redis, input),
  });
}
