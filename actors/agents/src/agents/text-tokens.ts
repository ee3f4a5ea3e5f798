/**
 * Tokens per code point by script, calibrated against OpenAI's `o200k_base`
 * tokenizer (GPT-4o, GPT-4.1, o-series; counted with `gpt-tokenizer`, see
 * `text-tokens.test.ts`): an estimate within ±25 % of it for CJK, Hangul,
 * Cyrillic, Greek, Arabic, Devanagari, Thai and emoji text, and
 * above it for English (o200k_base packs about 5 English characters in a token).
 * The former rule, characters ÷ 4, counted Chinese and emoji at a third or a
 * quarter of their tokens. Tokenizers of other families differ (`cl100k_base`
 * counts Chinese about 1.5 × higher): keep a margin in budgets for those.
 *
 * | code points                                              | tokens each |
 * | -------------------------------------------------------- | ----------- |
 * | Latin, Latin-1, Latin Extended, IPA (< U+0300), punctuation U+2000–U+206F | 0.25 (4 characters per token) |
 * | combining marks, Greek, Cyrillic, Armenian, Hebrew, Arabic (U+0300–U+07FF) | 0.36 |
 * | Indic scripts, Thai, Lao, Tibetan, Myanmar, Georgian (U+0800–U+10FF) | 0.42 |
 * | Hangul (syllables, jamo)                                 | 0.65 |
 * | kana, CJK punctuation, full-width forms                  | 0.75 |
 * | Han ideographs (all CJK blocks)                          | 0.75 |
 * | emoji and pictographs, regional indicators, skin tones    | 1.7 |
 * | zero-width joiner, variation selectors                   | 1 |
 * | anything else                                            | 0.5 |
 */
const LATIN = 0.25;

/**
 * Estimated tokens of a text, by script (see the table above), rounded up.
 * Deterministic and provider-independent, so a compaction decision made again
 * (an effect re-run) is the same. One pass over the text, no allocation.
 *
 * @param text - any text.
 * @returns tokens, 0 or more.
 * @example
 * estimateTextTokens("hello world"); // 3 (11 characters ÷ 4)
 * estimateTextTokens("持久化的智能体"); // 6 (7 ideographs × 0.75)
 */
export function estimateTextTokens(text: string): number {
  let total = 0;
  let latin = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x300) {
      latin += 1;
      continue;
    }
    let codePoint = code;
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        index += 1;
      }
    }
    total += tokensOf(codePoint);
  }
  // The small offset keeps float sums such as 25 × 0.36 = 9.000000000000002 at 9.
  return Math.max(0, Math.ceil(total + latin * LATIN - 1e-9));
}

function tokensOf(codePoint: number): number {
  if (codePoint < 0x800) return 0.36;
  if (codePoint < 0x1100) return 0.42;
  if (codePoint < 0x1200) return 0.65; // Hangul jamo
  if (codePoint >= 0x2000 && codePoint <= 0x206f) return codePoint === 0x200d ? 1 : LATIN;
  if (codePoint >= 0x3000 && codePoint <= 0x30ff) return 0.75; // CJK punctuation, kana
  if (codePoint >= 0x3130 && codePoint <= 0x318f) return 0.65; // Hangul compatibility jamo
  if (codePoint >= 0x3400 && codePoint <= 0x4dbf) return 0.75;
  if (codePoint >= 0x4e00 && codePoint <= 0x9fff) return 0.75;
  if (codePoint >= 0xac00 && codePoint <= 0xd7af) return 0.65; // Hangul syllables
  if (codePoint >= 0xf900 && codePoint <= 0xfaff) return 0.75;
  if (codePoint === 0xfe0e || codePoint === 0xfe0f) return 1;
  if (codePoint >= 0xff00 && codePoint <= 0xffef) return 0.75;
  if (codePoint >= 0x2600 && codePoint <= 0x27bf) return 1.7; // miscellaneous symbols, dingbats
  if (codePoint >= 0x2b00 && codePoint <= 0x2bff) return 1.7;
  if (codePoint >= 0x1f000 && codePoint <= 0x1faff) return 1.7; // emoji, flags, skin tones
  if (codePoint >= 0x20000 && codePoint <= 0x3ffff) return 0.75; // Han extensions B–H
  return 0.5;
}
