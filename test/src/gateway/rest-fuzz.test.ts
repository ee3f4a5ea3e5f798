import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { TroupeClient } from "@troupe/client";
import { countStoredMessages } from "@troupe/client/internal";
import { serveGateway, type ServingGateway } from "@troupe/gateway";
import { streamNames } from "@troupe/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { waitFor } from "../support/wait-for.js";

const TOKEN = "fuzz-token";
const SCOPED = "fuzz-scoped-token";
const MAX_BODY_BYTES = 16_384;
const KNOWN = "fz-known";

/** One HTTP request the fuzz test sends. */
interface FuzzRequest {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string | undefined;
  /** Why it must be refused, for the failure message. */
  readonly flaw: string;
}

const commandPaths = (id: string) => [
  `/v1/sessions/${id}/cancel`,
  `/v1/sessions/${id}/steer`,
  `/v1/sessions/${id}/approvals/call-1`,
  `/v1/sessions/${id}/questions/call-1`,
];
const postPaths = (id: string) => [`/v1/sessions/${id}/messages`, ...commandPaths(id)];

/** Session ids the protocol refuses (and the URL still carries as one path segment). */
const invalidSessionId = fc.oneof(
  fc.constantFrom("a.b", "a*b", "a%20b", "%3E", "x".repeat(129), "caf%C3%A9", "a%2Fb", "-.-"),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .filter((id) => /[^A-Za-z0-9_-]/.test(id))
    .map((id) => encodeURIComponent(id)),
);
/** Valid ids of sessions that have no event. */
const unknownSessionId = fc.stringMatching(/^[a-z0-9]{1,12}$/).map((id) => `fz-unknown-${id}`);

/** Bodies no route accepts: malformed JSON, wrong types, unknown fields, blank texts, too large. */
const badBody = fc.oneof(
  fc.string().map((text) => `{${text}`), // malformed JSON
  fc.constantFrom("", "null", "[]", "42", '"text"', "{]", '{"text":}', "\u0000"),
  fc
    .record({
      text: fc.oneof(
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.constant("   "),
        fc.array(fc.string()),
      ),
      decision: fc.oneof(fc.constant("maybe"), fc.integer()),
      runId: fc.oneof(fc.constant("a.b"), fc.integer()),
    })
    .map((body) => JSON.stringify(body)),
  fc
    .record({ unexpected: fc.jsonValue() })
    .map((body) => JSON.stringify({ text: "hi", decision: "approve", ...body })),
  fc.constant(JSON.stringify({ text: "x".repeat(MAX_BODY_BYTES + 10) })), // too large
);
/** Bodies a route would accept. */
const goodBody = fc.constantFrom(
  JSON.stringify({ text: "hello", decision: "approve" }),
  JSON.stringify({ text: "hello" }),
  JSON.stringify({}),
);

const bearer = (token: string) => `Bearer ${token}`;

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof<fc.Arbitrary<FuzzRequest>[]>(
  // Missing or wrong token: 401 whatever else.
  fc
    .record({
      path: fc.oneof(
        invalidSessionId.chain((id) => fc.constantFrom(...postPaths(id))),
        fc.constantFrom(...postPaths(KNOWN)),
      ),
      authorization: fc.constantFrom(
        undefined,
        "Bearer nope",
        "Basic abc",
        bearer(`${TOKEN}x`),
        "Bearer",
      ),
      body: fc.oneof(goodBody, badBody),
    })
    .map(({ path, authorization, body }) => ({
      method: "POST" as const,
      path,
      authorization,
      contentType: "application/json",
      body,
      flaw: "token",
    })),
  fc
    .record({
      path: fc.constantFrom("/v1/approvals", "/v1/sessions", `/v1/sessions/${KNOWN}`),
      authorization: fc.constantFrom(undefined, "Bearer nope"),
    })
    .map(({ path, authorization }) => ({
      method: "GET" as const,
      path,
      authorization,
      contentType: undefined,
      body: undefined,
      flaw: "token",
    })),
  // A token scoped to another prefix: 403 (or 400 for a bad body first).
  fc
    .record({ body: fc.oneof(goodBody, badBody), path: fc.constantFrom(...postPaths(KNOWN)) })
    .map(({ body, path }) => ({
      method: "POST" as const,
      path,
      authorization: bearer(SCOPED),
      contentType: "application/json",
      body,
      flaw: "scope",
    })),
  // An invalid session id.
  fc
    .record({
      id: invalidSessionId,
      body: fc.oneof(goodBody, badBody),
      get: fc.boolean(),
    })
    .chain(({ id, body, get }): fc.Arbitrary<FuzzRequest> =>
      get
        ? fc.constantFrom(`/v1/sessions/${id}`, `/v1/sessions/${id}/events`).map((path) => ({
            method: "GET" as const,
            path,
            authorization: bearer(TOKEN),
            contentType: undefined,
            body: undefined,
            flaw: "session id",
          }))
        : fc.constantFrom(...postPaths(id)).map((path) => ({
            method: "POST" as const,
            path,
            authorization: bearer(TOKEN),
            contentType: "application/json",
            body,
            flaw: "session id",
          })),
    ),
  // A valid session id without events: GET and commands are 404, any bad body 400.
  fc.record({ id: unknownSessionId, body: fc.oneof(goodBody, badBody) }).chain(({ id, body }) =>
    fc.constantFrom(`/v1/sessions/${id}`, ...commandPaths(id)).map((path) => ({
      method: path.split("/").length === 4 ? ("GET" as const) : ("POST" as const),
      path,
      authorization: bearer(TOKEN),
      contentType: path.split("/").length === 4 ? undefined : "application/json",
      body: path.split("/").length === 4 ? undefined : body,
      flaw: "unknown session",
    })),
  ),
  // A bad body (or a wrong content type) to a known or new session.
  fc
    .record({
      id: fc.oneof(fc.constant(KNOWN), unknownSessionId),
      body: badBody,
      contentType: fc.constantFrom("application/json", "text/plain", undefined),
    })
    .chain(({ id, body, contentType }) =>
      fc.constantFrom(...postPaths(id).filter((path) => !path.endsWith("/cancel"))).map((path) => ({
        method: "POST" as const,
        path,
        authorization: bearer(TOKEN),
        contentType,
        body,
        flaw: "body",
      })),
    ),
  // Queries of the wrong type.
  fc.constantFrom("0", "-1", "abc", "1001", "1.5").map((limit) => ({
    method: "GET" as const,
    path: `/v1/sessions?limit=${limit}`,
    authorization: bearer(TOKEN),
    contentType: undefined,
    body: undefined,
    flaw: "query",
  })),
);

// issue #16, "Must show — Bad input": malformed JSON, wrong types, oversized
// bodies, unknown and invalid session ids, missing or wrong tokens, each a 4xx
// with a JSON error, nothing published, nothing crashes.
describe("gateway fuzz: bad requests are 4xx JSON errors and publish nothing", () => {
  let dev: TroupeDev;
  let client: TroupeClient;
  let nats: NatsConnection;
  let jsm: JetStreamManager;
  let inbox: string;
  let gateway: ServingGateway;

  beforeAll(async () => {
    dev = await startTroupeDev(["--no-gateway"]);
    const state = await dev.state();
    client = await TroupeClient.connect({ natsUrl: state.natsUrl });
    nats = await connect({ servers: state.natsUrl });
    jsm = await jetstreamManager(nats);
    inbox = streamNames(state.prefix).inbox;
    gateway = await serveGateway({
      client,
      port: 0,
      auth: { tokens: [{ token: TOKEN }, { token: SCOPED, sessionPrefix: "other-" }] },
      limits: { maxBodyBytes: MAX_BODY_BYTES },
      console: false,
      log: () => undefined,
    });
    await client.sendAndWait(KNOWN, "hello", { timeoutMs: 60_000 });
    await waitFor(async () => (await client.lastEvent(KNOWN, "session.idle")) !== undefined, {
      timeoutMs: 30_000,
      description: "the known session idle",
    });
  }, 150_000);

  afterAll(async () => {
    await gateway?.close();
    await nats?.close();
    await client?.close();
    expect(await dev?.stop()).toBe(0);
  }, 60_000);

  it("answers every bad request with a 4xx {status, code, message}; the inbox and events streams are unchanged; the gateway still works", async () => {
    const inboxBefore = await countStoredMessages(jsm, inbox, ">");
    const eventsBefore = await client.lastSequence();
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fuzzRequest, async (request) => {
        const response = await fetch(`${gateway.url}${request.path}`, {
          method: request.method,
          headers: {
            ...(request.authorization === undefined
              ? {}
              : { authorization: request.authorization }),
            ...(request.contentType === undefined ? {} : { "content-type": request.contentType }),
          },
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        const text = await response.text();
        const what = `${request.flaw}: ${request.method} ${request.path} → ${response.status} ${text.slice(0, 200)}`;
        expect(response.status, what).toBeGreaterThanOrEqual(400);
        expect(response.status, what).toBeLessThan(500);
        expect(response.headers.get("content-type"), what).toMatch(/^application\/json/);
        const body = JSON.parse(text) as { status: unknown; code: unknown; message: unknown };
        expect(body.status, what).toBe(response.status);
        expect(typeof body.code, what).toBe("string");
        expect(typeof body.message, what).toBe("string");
        const key = `${request.flaw} ${response.status} ${String(body.code)}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }),
      { numRuns: 300, interruptAfterTimeLimit: 60_000 },
    );
    // Every kind of flaw was tried and answered with its code.
    const codes = new Set([...seen.keys()].map((key) => key.split(" ").slice(-2).join(" ")));
    for (const expected of [
      "401 unauthorized",
      "403 forbidden",
      "400 invalid_request",
      "400 invalid_json",
      "404 session_not_found",
      "413 body_too_large",
    ]) {
      expect(codes, [...seen.keys()].join("\n")).toContain(expected);
    }
    expect(await countStoredMessages(jsm, inbox, ">")).toBe(inboxBefore);
    expect(await client.lastSequence()).toBe(eventsBefore);

    // Still answering, and a good request is taken.
    const approvals = await fetch(`${gateway.url}/v1/approvals`, {
      headers: { authorization: bearer(TOKEN) },
    });
    expect(approvals.status).toBe(200);
    // The inbox is quiet now (its count did not move above), so the good
    // message is the next one stored. (Counting the stream after it would race
    // with the run it starts, whose messages land in the same stream.)
    const lastBefore = (await jsm.streams.info(inbox)).state.last_seq;
    const sent = await fetch(`${gateway.url}/v1/sessions/${KNOWN}/messages`, {
      method: "POST",
      headers: { authorization: bearer(TOKEN), "content-type": "application/json" },
      body: JSON.stringify({ text: "hello again" }),
    });
    expect(sent.status).toBe(202);
    const receipt = (await sent.json()) as { streamSequence: number; duplicate: boolean };
    expect(receipt).toMatchObject({ streamSequence: lastBefore + 1, duplicate: false });
    const stored = await jsm.streams.getMessage(inbox, { seq: receipt.streamSequence });
    expect(stored?.subject).toMatch(new RegExp(`\\.session\\.${KNOWN}$`));
  }, 120_000);
});
