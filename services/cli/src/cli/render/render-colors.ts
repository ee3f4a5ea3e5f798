import picocolors from "picocolors";

/** The picocolors functions the renderer uses (`dim`, `red`, `bold`, …); identity functions when colors are off. */
export type RenderColors = ReturnType<typeof picocolors.createColors>;

/**
 * Color functions, on or off: with `enabled` false every function returns its
 * input unchanged, so the output holds no ANSI escape sequences.
 *
 * @param enabled - whether to color (a terminal that supports it, `NO_COLOR` unset, …).
 * @see https://github.com/alexeyraspopov/picocolors#usage
 */
export function renderColors(enabled: boolean): RenderColors {
  return picocolors.createColors(enabled);
}
