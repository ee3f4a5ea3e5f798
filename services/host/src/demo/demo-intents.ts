/**
 * What the demo script understands in a user message, as plain data. Parsing
 * is pure and deterministic, so the same message gives the same tool call in
 * any process.
 */

/**
 * A request the demo agent answers with a tool call or a fixed text.
 *
 * Shape: `{ kind: "help" }`, `{ kind: "research", task }`, `{ kind: "clock", timeZone }`,
 * `{ kind: "note", title, text }` or `{ kind: "email", to, subject, body }`.
 */
export type DemoIntent =
  | { readonly kind: "help" }
  | { readonly kind: "research"; readonly task: string }
  | { readonly kind: "clock"; readonly timeZone: string }
  | { readonly kind: "note"; readonly title: string; readonly text: string }
  | {
      readonly kind: "email";
      readonly to: string;
      readonly subject: string;
      readonly body: string;
    };

/** Cities the demo knows, lower case, and their IANA time zones. */
export const DEMO_CITY_TIME_ZONES: Readonly<Record<string, string>> = Object.freeze({
  tokyo: "Asia/Tokyo",
  london: "Europe/London",
  "new york": "America/New_York",
  paris: "Europe/Paris",
  sydney: "Australia/Sydney",
});

/** Words in a note title at most. */
const TITLE_WORDS = 5;
/** Words in an email subject at most. */
const SUBJECT_WORDS = 6;

const HELP = /^(?:\/?help|what can you do)\b[\s.!?]*$|^\?$/i;
const EMAIL =
  /^(?:please\s+)?(?:send\s+(?:an?\s+)?e-?mail\s+to|e-?mail)\s+([^\s@]+@[^\s@]+?)[.,;:!?]*(?:\s+([\s\S]*))?$/i;
const NOTE =
  /^(?:please\s+)?(?:note(?:\s+down)?|remember|save\s+(?:a\s+)?note)\b(?:\s+that\b)?[\s:,-]*([\s\S]*)$/i;
const RESEARCH =
  /^(?:please\s+)?ask\s+(?:the\s+)?researcher\b[\s:,-]*(?:to\s+(?:tell\s+(?:me|you)\s+)?)?([\s\S]*)$/i;
const CLOCK = /\b(?:time|clock)\b/i;
const IANA_ZONE = /\b([A-Z][A-Za-z_]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?)\b/;

/**
 * Reads a user message (case-insensitive), first match wins:
 *
 * | message                                                  | intent                                          |
 * | -------------------------------------------------------- | ----------------------------------------------- |
 * | `help`, `/help`, `?`, `what can you do?` (alone)         | `help`                                          |
 * | `ask the researcher …`, `ask researcher to …`            | `research`: task = the rest (the `researcher` subagent) |
 * | `email <address> …`, `send an email to <address> …`      | `email`: subject = first words of the rest      |
 * | `note …`, `note down …`, `remember [that] …`, `save a note …` | `note`: title = first words of the text    |
 * | anything with the word `time` or `clock`                 | `clock`: a known city's zone, an IANA name, else UTC |
 *
 * @param message - the user's message.
 * @returns the intent, or `undefined` when the message is none of these (or starts with `/`, other than `/help`).
 * @example parseDemoIntent("what time is it in Tokyo?") // { kind: "clock", timeZone: "Asia/Tokyo" }
 */
export function parseDemoIntent(message: string): DemoIntent | undefined {
  const text = message.trim();
  if (HELP.test(text)) return { kind: "help" };
  if (text.startsWith("/")) return undefined;
  const research = RESEARCH.exec(text);
  if (research !== null && (research[1] ?? "").trim() !== "") {
    return { kind: "research", task: (research[1] ?? "").trim() };
  }
  const email = EMAIL.exec(text);
  if (email !== null) return emailIntent(email[1] ?? "", email[2] ?? "");
  const note = NOTE.exec(text);
  if (note !== null && (note[1] ?? "").trim() !== "") return noteIntent((note[1] ?? "").trim());
  if (CLOCK.test(text)) return { kind: "clock", timeZone: timeZoneIn(text) };
  return undefined;
}

/**
 * The time zone a message names: a known city ({@link DEMO_CITY_TIME_ZONES}),
 * else an IANA-looking name (`Europe/Berlin`), else `"UTC"`.
 *
 * @param text - the message.
 */
export function timeZoneIn(text: string): string {
  const lower = text.toLowerCase();
  for (const [city, zone] of Object.entries(DEMO_CITY_TIME_ZONES)) {
    if (new RegExp(`\\b${city}\\b`).test(lower)) return zone;
  }
  return IANA_ZONE.exec(text)?.[1] ?? "UTC";
}

function noteIntent(text: string): DemoIntent {
  return { kind: "note", title: firstWords(text, TITLE_WORDS), text };
}

function emailIntent(to: string, rest: string): DemoIntent {
  const body = rest.trim().replace(/^(?:saying|that|with)\b[\s:,-]*/i, "");
  if (body === "") {
    return {
      kind: "email",
      to,
      subject: "Hello from Troupe",
      body: "Hello! This is a message from the Troupe demo agent.",
    };
  }
  const subject = capitalize(
    firstWords(body.replace(/^(?:about|re:?|subject:?)\s+/i, ""), SUBJECT_WORDS),
  );
  return { kind: "email", to, subject, body };
}

/** The first `count` words of `text`, without trailing punctuation, with `…` when words were left out. */
function firstWords(text: string, count: number): string {
  const words = text.split(/\s+/).filter((word) => word !== "");
  const kept = words
    .slice(0, count)
    .join(" ")
    .replace(/[.,;:!?]+$/, "");
  return words.length > count ? `${kept}…` : kept;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
