import { z } from "zod";

/**
 * A media type or a wildcard of one, as `defineAgent({ media: { accepts } })`
 * and the media limits take them: `image/png`, `image/*` (every image) or
 * `*\/*` (anything). Lowercase.
 */
export const mediaTypePatternSchema = z
  .string()
  .max(255)
  .regex(/^(?:\*\/\*|[a-z0-9][a-z0-9!#$&^_.+-]*\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*))$/u, {
    error: 'Expected a lowercase media type or wildcard: "image/png", "image/*" or "*/*".',
  });
