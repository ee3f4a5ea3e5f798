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
