import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decodeMessage } from "../codec/decode-message.js";
import { formatHistory, parseHistory, toHistoryJson } from "./history-codec.js";
import { InvalidHistoryError } from "./invalid-history-error.js";
import type { TroupeHistory } from "./history-schema.js";

// `fixtures/history-v<N>.json` is a history as format version N wrote it. These
// files are never edited: if one stops loading, the format broke its promise
// that every older version keeps loading (issue #14).
const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

function caught(run: () => unknown): InvalidHistoryError {
  try {
    run();
  } catch (error) {
    if (InvalidHistoryError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an InvalidHistoryError");
}

describe("recorded histories", () => {
  it("a format version 1 file still loads, and its journal bytes decode to the message recorded", () => {
    const history = parseHistory(fixture("history-v1.json"));
    expect(history.root).toBe("counter/c1");
    const [actor] = history.actors;
    expect(actor?.generations[0]?.state).toMatchObject({ context: { count: 2 } });
    const entry = actor!.journal[0]!;
    const envelope = decodeMessage(Buffer.from(entry.data, "base64"), {
      contentType: entry.contentType,
      subject: entry.subject,
      schemas: { "counter.increment": z.object({ by: z.number() }) },
      defaults: { id: "x", timestampMs: entry.timestampMs },
    });
    expect(envelope).toMatchObject({ type: "counter.increment", payload: { by: 2 } });
  });

  it("JSON and NDJSON round-trip to the same history", () => {
    const history = parseHistory(fixture("history-v1.json"));
    const twoActors: TroupeHistory = {
      ...history,
      actors: [...history.actors, { ...history.actors[0]!, address: "counter/c2" }],
    };
    const ndjson = formatHistory(twoActors, "ndjson");
    expect(ndjson.trim().split("\n")).toHaveLength(1 + 2 * 3);
    expect(parseHistory(ndjson)).toEqual(twoActors);
    expect(parseHistory(formatHistory(twoActors, "json"))).toEqual(twoActors);
  });

  it("a newer format version is refused with the version it needs", () => {
    const newer = { ...(JSON.parse(fixture("history-v1.json")) as object), formatVersion: 2 };
    const error = caught(() => parseHistory(JSON.stringify(newer)));
    expect(error.code).toBe("invalid_history");
    expect(error.path).toBe("formatVersion");
    expect(error.message).toContain("format version 2");
  });

  it("a file that is not a history, or breaks the schema, is refused with the path", () => {
    expect(caught(() => parseHistory("not json")).message).toContain("JSON or NDJSON");
    expect(caught(() => parseHistory('{"format":"other"}')).path).toBe("format");
    const broken = JSON.parse(fixture("history-v1.json")) as TroupeHistory;
    const [actor] = broken.actors;
    const [entry] = actor!.journal;
    Object.assign(entry!, { data: "not base64!" });
    expect(caught(() => parseHistory(broken)).path).toBe("actors/0/journal/0/data");
    const ndjson = formatHistory(parseHistory(fixture("history-v1.json")), "ndjson").split("\n");
    const orphan = [ndjson[0], ndjson[2]].join("\n");
    expect(caught(() => parseHistory(orphan)).path).toBe("line 2");
  });

  it("toHistoryJson keeps bytes as base64 and drops what JSON cannot hold", () => {
    expect(
      toHistoryJson({
        bytes: new Uint8Array([1, 2]),
        gone: undefined,
        list: [undefined, Number.NaN, 3],
        when: new Date(0),
      }),
    ).toEqual({
      bytes: { $base64: "AQI=" },
      list: [null, null, 3],
      when: "1970-01-01T00:00:00.000Z",
    });
  });
  it("a file cut short or edited is refused, not replayed in part", () => {
    const history = parseHistory(fixture("history-v1.json"));
    const [actor] = history.actors;
    const twoActors: TroupeHistory = {
      ...history,
      actors: [actor!, { ...actor!, address: "counter/c2" }],
    };
    const lines = formatHistory(twoActors, "ndjson").trim().split("\n");
    // Cut before the second actor: the header's count says so.
    expect(caught(() => parseHistory(lines.slice(0, 4).join("\n"))).message).toContain(
      "the header says 2 actor(s), the file holds 1",
    );
    // Cut inside an actor (its generation line lost): its own counts say so.
    const oneActor = formatHistory(history, "ndjson").trim().split("\n");
    expect(oneActor).toHaveLength(4);
    expect(caught(() => parseHistory(oneActor.slice(0, 3).join("\n"))).path).toBe(
      "actors/0/generations",
    );
    const refused = (change: (copy: TroupeHistory) => TroupeHistory) =>
      caught(() => parseHistory(JSON.stringify(change(structuredClone(twoActors)))));
    expect(refused((copy) => ({ ...copy, actors: [] })).path).toBe("actors");
    expect(refused((copy) => ({ ...copy, root: "counter/elsewhere" })).message).toContain(
      "is not one of the history's actors",
    );
    expect(refused((copy) => ({ ...copy, actors: [actor!, actor!] })).path).toBe(
      "actors/1/address",
    );
    const renumbered = refused((copy) => {
      Object.assign(copy.actors[0]!.generations[0]!, { generation: 99 });
      return copy;
    });
    expect(renumbered.path).toBe("actors/0/generations/0/generation");
    const elsewhere = refused((copy) => {
      Object.assign(copy.actors[0]!.generations[0]!, { inboxSeq: 8 });
      return copy;
    });
    expect(elsewhere.path).toBe("actors/0/generations/0/inboxSeq");
  });
});
