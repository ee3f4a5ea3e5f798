import { z } from "zod";

/** The envelope version this folder defines: every v1 envelope carries `v: 1`. */
export const ENVELOPE_VERSION = 1;

/**
 * An id chosen by whoever creates the thing it names (message, event, run, tool
 * call, effect, timer, question): 1 to 256 characters, no other rule. Ids that
 * become subject tokens or actor ids use `actorIdSchema` instead.
 */
export const identifierSchema = z.string().min(1).max(256);

/** A point in time: whole milliseconds since the Unix epoch (UTC), 0 or more. */
export const timestampMsSchema = z.number().int().nonnegative();

/** A count of tokens as reported by the model provider: a whole number, 0 or more. */
export const tokenCountSchema = z.number().int().nonnegative();

/**
 * The longest free text a command carries (`user.message.text`, `run.steer.text`,
 * `question.answer.text`, notes and reasons), in characters (UTF-16 code units):
 * 262,144. At most 3 bytes per code unit in UTF-8, such a text (768 KiB) leaves
 * room for the envelope within the 1 MiB message limit (docs/decisions/0012).
 */
export const MAX_TEXT_LENGTH = 262_144;

/**
 * The text of a command: 1 to {@link MAX_TEXT_LENGTH} characters with at least
 * one that is not whitespace (`""` and `"  \n"` are refused). The text is kept
 * as sent (not trimmed). Used by every public command with a text
 * (`user.message`, `run.steer`, `question.answer`), so each gets the same rules
 * (an empty `run.steer` used to trigger an extra model call).
 */
export const commandTextSchema = z
  .string()
  .max(MAX_TEXT_LENGTH)
  .refine((text) => text.trim().length > 0, {
    error: "Expected a text with at least one character that is not whitespace.",
  });

/**
 * An optional free text of a command (`note`, `reason`): at most
 * {@link MAX_TEXT_LENGTH} characters; may be empty.
 */
export const commandNoteSchema = z.string().max(MAX_TEXT_LENGTH);

/** The longest tool call id, in characters. */
export const MAX_TOOL_CALL_ID_LENGTH = 256;

const visibleCharacters = /^[^\s\p{Cc}]+$/u;

/**
 * A tool call id (and a question id, which is the id of its `ask_user` call): 1 to
 * {@link MAX_TOOL_CALL_ID_LENGTH} characters, none of them whitespace or a
 * control character. Model providers choose these ids (`call_…`, `toolu_…`,
 * `functions.search:0`), so the rule is looser than an actor id's; the same
 * schema checks the ids a model returns (`modelToolCallSchema`) and the ids a
 * command names (`tool.approve`, `tool.deny`, `question.answer`), so every call
 * a model makes can be addressed (docs/decisions/0012).
 */
export const toolCallIdSchema = z
  .string()
  .min(1)
  .max(MAX_TOOL_CALL_ID_LENGTH)
  .regex(visibleCharacters, {
    error: "Expected an id without whitespace or control characters.",
  });
