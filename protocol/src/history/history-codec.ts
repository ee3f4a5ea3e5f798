import type { z } from "zod";
import { InvalidHistoryError } from "./invalid-history-error.js";
import {
  HISTORY_FORMAT,
  HISTORY_FORMAT_VERSION,
  historyActorSchema,
  historyGenerationSchema,
  historyJournalEntrySchema,
  troupeHistorySchema,
  type HistoryActor,
  type HistoryJson,
  type TroupeHistory,
} from "./history-schema.js";

/** How a history is written: one JSON document, or NDJSON (one record per line). */
export type HistoryFileFormat = "json" | "ndjson";

/**
 * Turns decoded data (a stored record, a replayed snapshot) into the JSON a
 * history holds: `Uint8Array` → `{ "$base64": "…" }`; otherwise as
 * {@link toJsonData}. Both sides of a replay comparison go through it, so what
 * JSON cannot hold never shows as a difference.
 *
 * @param value - plain data of any shape.
 * @returns its JSON form (`null` for `undefined`).
 */
export function toHistoryJson(value: unknown): HistoryJson {
  return toJsonData(value, (bytes) => ({ $base64: Buffer.from(bytes).toString("base64") }));
}

/**
 * Turns decoded data into JSON that `JSON.stringify` writes without loss or
 * throwing: bytes as `encodeBytes` says; `undefined` properties, functions and
 * symbols dropped; `undefined` in arrays and non-finite numbers → `null`;
 * `Map` → object (keys as strings); `Set` → array; `bigint` → decimal string;
 * `Date` → ISO string (an invalid one → `null`).
 *
 * @param value - plain data of any shape.
 * @param encodeBytes - the JSON for a `Uint8Array` (or `Buffer`).
 * @returns its JSON form (`null` for `undefined`).
 */
export function toJsonData(
  value: unknown,
  encodeBytes: (bytes: Uint8Array) => HistoryJson,
): HistoryJson {
  return convert(value, encodeBytes) ?? null;
}

function convert(
  value: unknown,
  encodeBytes: (bytes: Uint8Array) => HistoryJson,
): HistoryJson | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (value instanceof Uint8Array) return encodeBytes(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  const item = (entry: unknown) => convert(entry, encodeBytes) ?? null;
  if (Array.isArray(value)) return value.map(item);
  if (value instanceof Set) return [...value].map(item);
  const entries: Iterable<[unknown, unknown]> =
    value instanceof Map ? value.entries() : Object.entries(value);
  const result: Record<string, HistoryJson> = {};
  for (const [key, entry] of entries) {
    const converted = convert(entry, encodeBytes);
    if (converted !== undefined) result[String(key)] = converted;
  }
  return result;
}

/**
 * Writes a history as a file's text.
 *
 * - `json`: one document, indented by 2 spaces, ending in a newline.
 * - `ndjson`: a header line (the document without `actors`, plus
 *   `actorCount`), then per actor a line `{ "record": "actor", address,
 *   machineVersion, journalLength, generationCount }` followed by its
 *   `{ "record": "journal", actor, …entry }` and
 *   `{ "record": "generation", actor, …generation }` lines — a long history
 *   can be streamed and diffed line by line. The counts let a reader tell a
 *   file cut short from a complete one.
 *
 * @param history - a valid history.
 * @param format - `json` (default) or `ndjson`.
 * @returns the text (UTF-8).
 */
export function formatHistory(history: TroupeHistory, format: HistoryFileFormat = "json"): string {
  if (format === "json") return `${JSON.stringify(history, null, 2)}\n`;
  const { actors, ...header } = history;
  const lines = [JSON.stringify({ ...header, actorCount: actors.length })];
  for (const actor of actors) {
    lines.push(
      JSON.stringify({
        record: "actor",
        address: actor.address,
        machineVersion: actor.machineVersion,
        journalLength: actor.journal.length,
        generationCount: actor.generations.length,
      }),
    );
    for (const entry of actor.journal) {
      lines.push(JSON.stringify({ record: "journal", actor: actor.address, ...entry }));
    }
    for (const generation of actor.generations) {
      lines.push(JSON.stringify({ record: "generation", actor: actor.address, ...generation }));
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Reads a history from a file's text (JSON or NDJSON, told apart by content:
 * a document whose first line is a complete JSON object without `actors` is
 * NDJSON), or from an already parsed JSON value.
 *
 * @param input - the file's text, or a parsed JSON document.
 * @returns the validated history.
 * @throws InvalidHistoryError when it is not JSON/NDJSON, not a Troupe history
 *   (`format` is not `troupe.history`), of a newer `formatVersion` than
 *   {@link HISTORY_FORMAT_VERSION}, or breaks the schema (with the path).
 */
export function parseHistory(input: unknown): TroupeHistory {
  if (typeof input !== "string") return validate(input);
  const text = input.replace(/^\uFEFF/, "");
  const firstLine = text.split("\n", 1)[0]?.trim() ?? "";
  const header = tryJson(firstLine);
  if (isObject(header) && !("actors" in header) && text.trim() !== firstLine) {
    return parseNdjson(text, header);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new InvalidHistoryError(
      `a history must be JSON or NDJSON: ${(error as Error).message}`,
      "",
      { cause: error },
    );
  }
  return validate(document);
}

function parseNdjson(text: string, headerLine: Record<string, unknown>): TroupeHistory {
  checkFormat(headerLine);
  const { actorCount, ...header } = headerLine;
  const expected = new Map<Record<string, unknown>, { journal: unknown; generations: unknown }>();
  const actors = new Map<string, Pick<HistoryActor, "journal" | "generations"> & object>();
  const order: Record<string, unknown>[] = [];
  const lines = text.split("\n");
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index]?.trim() ?? "";
    if (line === "") continue;
    const where = `line ${index + 1}`;
    const record = tryJson(line);
    if (!isObject(record)) throw new InvalidHistoryError("not a JSON object", where);
    const { record: kind, actor, ...rest } = record;
    if (kind === "actor") {
      const { journalLength, generationCount, ...fields } = rest;
      const address = String(fields["address"]);
      const entry = { ...fields, journal: [], generations: [] };
      actors.set(address, entry);
      order.push(entry);
      expected.set(entry, { journal: journalLength, generations: generationCount });
      continue;
    }
    const owner = typeof actor === "string" ? actors.get(actor) : undefined;
    if (owner === undefined) {
      throw new InvalidHistoryError(
        `a ${String(kind)} record names actor ${String(actor)} before its "actor" line`,
        where,
      );
    }
    if (kind === "journal") {
      (owner.journal as unknown[]).push(parseLine(historyJournalEntrySchema, rest, where));
    } else if (kind === "generation") {
      (owner.generations as unknown[]).push(parseLine(historyGenerationSchema, rest, where));
    } else {
      throw new InvalidHistoryError(
        `unknown record ${JSON.stringify(kind)} (expected actor, journal or generation)`,
        where,
      );
    }
  }
  const cut = (what: string, where: string) =>
    new InvalidHistoryError(`the file is cut short or edited: ${what}`, where);
  if (typeof actorCount === "number" && actorCount !== order.length) {
    throw cut(`the header says ${actorCount} actor(s), the file holds ${order.length}`, "line 1");
  }
  for (const [index, actor] of order.entries()) {
    const counts = expected.get(actor);
    for (const part of ["journal", "generations"] as const) {
      const said = counts?.[part];
      const held = (actor[part] as unknown[]).length;
      if (typeof said === "number" && said !== held) {
        throw cut(
          `actor ${String(actor["address"])} should have ${said} ${part} record(s), the file holds ${held}`,
          `actors/${index}/${part}`,
        );
      }
    }
    const parsed = historyActorSchema.safeParse(actor);
    if (!parsed.success) throw schemaError(parsed.error, `actors/${index}`);
  }
  return validate({ ...header, actors: order });
}

function parseLine<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw schemaError(parsed.error, where);
  return parsed.data;
}

function validate(document: unknown): TroupeHistory {
  if (!isObject(document)) throw new InvalidHistoryError("a history must be a JSON object");
  checkFormat(document);
  const parsed = troupeHistorySchema.safeParse(document);
  if (!parsed.success) throw schemaError(parsed.error, "");
  return parsed.data;
}

function checkFormat(document: Record<string, unknown>): void {
  if (document["format"] !== HISTORY_FORMAT) {
    throw new InvalidHistoryError(
      `not a Troupe history: "format" is ${JSON.stringify(document["format"])}, expected "${HISTORY_FORMAT}"`,
      "format",
    );
  }
  const version = document["formatVersion"];
  if (
    typeof version === "number" &&
    Number.isInteger(version) &&
    version > HISTORY_FORMAT_VERSION
  ) {
    throw new InvalidHistoryError(
      `this history has format version ${version}; this @troupe/protocol reads versions up to ` +
        `${HISTORY_FORMAT_VERSION} (upgrade the Troupe packages to read it)`,
      "formatVersion",
    );
  }
}

function schemaError(error: z.ZodError, prefix: string): InvalidHistoryError {
  const [issue] = error.issues;
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter((part) => part !== "").join("/");
  return new InvalidHistoryError(`not a valid history: ${issue?.message ?? "invalid"}`, path, {
    cause: error,
  });
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
