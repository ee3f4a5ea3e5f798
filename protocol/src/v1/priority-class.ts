import { z } from "zod";

/**
 * The scheduling classes of a host, highest first (docs/decisions/0057):
 * `interactive` (a person waits for the answer), `default`, `batch` (bulk work
 * that may wait). A host serves a higher class first without starving the
 * lower ones (docs/operating/flow-control.md says the fairness rule).
 */
export const PRIORITY_CLASSES = ["interactive", "default", "batch"] as const;

/**
 * A scheduling class: one of {@link PRIORITY_CLASSES}. Absent means `default`.
 *
 * Shape: `"interactive" | "default" | "batch"`.
 */
export const priorityClassSchema = z.enum(PRIORITY_CLASSES);
/** See {@link priorityClassSchema}. */
export type PriorityClass = z.infer<typeof priorityClassSchema>;

/** The class of work that names none. */
export const DEFAULT_PRIORITY_CLASS: PriorityClass = "default";

/**
 * The NATS header naming the scheduling class of an inbox message
 * (`Troupe-Priority: interactive`). Hosts read it before decoding the body,
 * to order the work they queue; the class a machine records (`user.message`
 * `priority`, `run.start` `priority`) is in the payload. Absent or unknown =
 * `default`.
 */
export const PRIORITY_HEADER = "Troupe-Priority";

/**
 * Reads a {@link PRIORITY_HEADER} value.
 *
 * @param value - the header value, or undefined when the message has none.
 * @returns the class it names, or undefined when it is absent, empty, `default`
 *   or not a known class (so records stay as before for default work).
 */
export function priorityFromHeader(value: string | undefined): PriorityClass | undefined {
  if (value === "interactive" || value === "batch") return value;
  return undefined;
}
