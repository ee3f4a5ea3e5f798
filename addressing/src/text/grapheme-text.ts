/**
 * Cutting text only between user-perceived characters (grapheme clusters,
 * Unicode UAX #29, through `Intl.Segmenter`), so that a surrogate pair (an
 * emoji, a rare CJK ideograph), a base letter and its combining marks, or an
 * emoji ZWJ sequence is never split (docs/decisions/0049).
 *
 * @see https://unicode.org/reports/tr29/#Grapheme_Cluster_Boundaries
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * UTF-16 code units around a cut that are segmented to find the boundary. A
 * cluster longer than this (only contrived ones are: an emoji ZWJ family is 11)
 * is cut between code points instead.
 */
const WINDOW = 64;

/**
 * The longest prefix of `text` of at most `maxLength` UTF-16 code units that
 * ends between two grapheme clusters.
 *
 * @param text - any text.
 * @param maxLength - most code units of the prefix (≥ 0).
 * @returns `text` itself when it fits, else the prefix (possibly a little
 *   shorter than `maxLength`, never ending inside a cluster).
 * @example
 * cutText("ab👍🏽c", 3); // "ab" — not "ab\ud83d"
 */
export function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  if (maxLength <= 0) return "";
  const from = codePointCut(text, Math.max(0, maxLength - WINDOW));
  const window = text.slice(from, Math.min(text.length, maxLength + WINDOW));
  let cut = -1;
  for (const { index } of segmenter.segment(window)) {
    if (from + index > maxLength) break;
    cut = from + index;
  }
  // A boundary at the window's start is only one when the window starts the text.
  if (cut > from || (cut === from && from === 0)) return text.slice(0, cut);
  return text.slice(0, codePointCut(text, maxLength));
}

/**
 * Splits `text` before its last grapheme cluster, which more text may still
 * extend (a combining mark, a skin tone, the second half of a surrogate pair).
 *
 * @param text - streamed text so far.
 * @returns `[complete, last]`: `complete + last === text`; `last` is empty
 *   only for empty text, and also holds the cluster before a trailing lone
 *   high surrogate.
 * @example
 * splitLastGrapheme("cafe"); // ["caf", "e"] — "e" may still take a U+0301
 */
export function splitLastGrapheme(text: string): [complete: string, last: string] {
  if (text.length === 0) return ["", ""];
  // A lone high surrogate at the end is half a code point: the whole one (a
  // skin tone, say) may still join the cluster before it, so both are held.
  if (codePointCut(text, text.length) === text.length - 1) {
    const [complete, last] = splitLastGrapheme(text.slice(0, -1));
    return [complete, last + text.slice(-1)];
  }
  const from = codePointCut(text, Math.max(0, text.length - WINDOW));
  let start = from;
  for (const { index } of segmenter.segment(text.slice(from))) start = from + index;
  if (start === from && from > 0) start = codePointCut(text, text.length - 1);
  return [text.slice(0, start), text.slice(start)];
}

/** `at`, or `at − 1` when `at` would split a surrogate pair. */
function codePointCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}
