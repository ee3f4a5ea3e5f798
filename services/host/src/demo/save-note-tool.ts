import { defineTool, type ToolDefinition } from "@troupe/agents";
import type { Redis } from "ioredis";
import { z } from "zod";
import { demoNotesKey } from "./demo-redis-keys.js";

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
 * Shape: `{ saved: string, notes: number }`: the title, and how many notes the session has now.
 */
export interface SaveNoteResult {
  readonly saved: string;
  readonly notes: number;
}

/**
 * Saves a note of a session in the Redis hash {@link demoNotesKey} (`HSET title text`, then
 * `HLEN`, in one `MULTI`). Saving the same note again changes nothing: an idempotent write.
 *
 * @param redis - the Redis client.
 * @param sessionId - the session the note belongs to (each session has its own notes).
 * @param input - title and text.
 * @returns the title and the number of notes of the session.
 * @throws whatever ioredis throws when Redis fails.
 */
export async function saveNote(
  redis: Redis,
  sessionId: string,
  input: SaveNoteInput,
): Promise<SaveNoteResult> {
  const key = demoNotesKey(sessionId);
  const results = await redis.multi().hset(key, input.title, input.text).hlen(key).exec();
  const [, count] = results?.[1] ?? [];
  if (typeof count !== "number") throw new Error("Redis did not answer HLEN for the demo notes");
  return { saved: input.title, notes: count };
}

/**
 * The demo `save_note` tool (`idempotent_write`): see {@link saveNote}; the notes are
 * those of the calling session (`context.sessionId`).
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
    execute: (input, context) => saveNote(redis, context.sessionId, input),
  });
}
