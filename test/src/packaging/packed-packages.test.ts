/**
 * The packages work as a user installs them — packed
 * tarballs in fresh npm projects outside the repository, run by a plain
 * `node` against real NATS and Redis.
 *
 * - A Node app that only sends messages and reads events installs
 *   `@troupe/client`, `@troupe/protocol` (with `@troupe/addressing`), the NATS
 *   client and the protocol's codecs, and nothing else.
 * - A plain xstate counter runs on `@troupe/runtime` alone (with the step,
 *   stores and replay packages it re-exports): no `ai`,
 *   `@ai-sdk/*`, `@troupe/agents` or `@troupe/machines` in its tree.
 */
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, headers } from "@nats-io/transport-node";
import {
  CONTENT_TYPE_HEADER,
  encodeEvent,
  eventSubject,
  streamNames,
  type EventType,
} from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { ensureStreams, RedisSnapshotStore } from "@troupe/runtime/internal";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServers } from "../harness/start-test-servers.js";
import { NpmProject } from "./npm-project.js";
import { packPublicPackages, repositoryRoot } from "./pack-workspaces.js";

const CLIENT_APP = fileURLToPath(new URL("apps/client-app.mjs", import.meta.url));
const COUNTER_APP = fileURLToPath(new URL("apps/counter-app.mjs", import.meta.url));

/** `npm pack` of the public packages, including their (turbo-cached) builds; a cold build takes ~80 s here. */
const PACK_TIMEOUT_MS = 240_000;
/** One `npm install` of tarballs plus cached registry packages (~4 s here). */
const INSTALL_TIMEOUT_MS = 90_000;
const LS_TIMEOUT_MS = 15_000;
const NODE_TIMEOUT_MS = 15_000;
const APP_TIMEOUT_MS = 30_000;
const SHARD_COUNT = 4;

/** What a client-only app may have installed: the client, the protocol (and its names), NATS and the codecs. */
const CLIENT_TOP_LEVEL = ["@troupe/addressing", "@troupe/client", "@troupe/protocol"];
const CLIENT_TREE_ALLOWED = [
  /^@troupe\/(client|protocol|addressing)$/,
  /^@nats-io\/(jetstream|transport-node|nats-core|nkeys|nuid|obj)$/,
  /^tweetnacl$/, // @nats-io/nkeys
  /^js-sha256$/, // @nats-io/obj
  /^@opentelemetry\/api$/, // tracing API, no-op without an SDK (issue #18)
  /^zod$/,
  /^msgpackr$/,
  // msgpackr's optional native accelerator and its loader.
  /^msgpackr-extract$/,
  /^@msgpackr-extract\/msgpackr-extract-[a-z0-9-]+$/,
  /^node-gyp-build-optional-packages$/,
  /^detect-libc$/,
];
/** Packages neither app may install, anywhere in its tree. */
const HEAVY = [
  /^@troupe\/(step|stores|replay|runtime|models|tools|agents|cli|machines)$/,
  /^ioredis$/,
  /^ai$/,
  /^@ai-sdk\//,
  /^commander$/,
  /^tsx$/,
  /^pino$/,
  /^xstate$/,
];
/** Packages the runtime app may not install, anywhere in its tree. */
const NOT_FOR_RUNTIME = [
  /^ai$/,
  /^@ai-sdk\//,
  /^@troupe\/(models|tools|agents|machines|client|cli)$/,
  /^commander$/,
  /^tsx$/,
];
/** The runtime app's own dependencies: the tarballs and what its code imports itself. */
const RUNTIME_APP_REGISTRY_DEPENDENCIES = ["@nats-io/transport-node", "xstate", "zod"];

const matching = (names: readonly string[], patterns: readonly RegExp[]) =>
  names.filter((name) => patterns.some((pattern) => pattern.test(name)));

describe("packed @troupe/* tarballs installed in fresh projects outside the repository", () => {
  let workspace: string | undefined;
  let clientProject: NpmProject;
  let runtimeProject: NpmProject;

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), "troupe-packaging-"));
    const tarballs = await packPublicPackages(PACK_TIMEOUT_MS);
    const tarball = (name: string) => tarballs.get(name) ?? "";
    // The ranges the runtime itself declares, so the app installs what the runtime was built with.
    const runtimeManifest = JSON.parse(
      await readFile(join(repositoryRoot, "actors/runtime/package.json"), "utf8"),
    ) as { dependencies: Record<string, string> };
    const installed = async (dir: string, specs: string[]) => {
      const project = await NpmProject.create(join(workspace!, dir));
      await project.install(specs, INSTALL_TIMEOUT_MS);
      return project;
    };
    [clientProject, runtimeProject] = await Promise.all([
      installed("client-app", [
        tarball("@troupe/addressing"),
        tarball("@troupe/protocol"),
        tarball("@troupe/client"),
      ]),
      installed("runtime-app", [
        tarball("@troupe/addressing"),
        tarball("@troupe/protocol"),
        tarball("@troupe/step"),
        tarball("@troupe/stores"),
        tarball("@troupe/replay"),
        tarball("@troupe/runtime"),
        ...RUNTIME_APP_REGISTRY_DEPENDENCIES.map(
          (name) => `${name}@${runtimeManifest.dependencies[name]}`,
        ),
      ]),
    ]);
  }, PACK_TIMEOUT_MS + INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
  });

  describe("a Node app that only sends messages and reads events", () => {
    it(
      "installs @troupe/client, @troupe/protocol with @troupe/addressing, the NATS client and Object Store, the protocol's codecs and the OpenTelemetry API, nothing else",
      async () => {
        const tree = await clientProject.productionTree(LS_TIMEOUT_MS);
        expect(tree.topLevelNames()).toEqual(CLIENT_TOP_LEVEL);
        expect(tree.dependenciesOf("@troupe/client")).toEqual([
          "@nats-io/jetstream",
          // The Object Store, for media uploads (issue #19, docs/capabilities/media.md).
          "@nats-io/obj",
          "@nats-io/transport-node",
          // The API only (no SDK): the send span and traceparent, no-ops
          // until the application registers an SDK (issue #18).
          "@opentelemetry/api",
          "@troupe/protocol",
          // Validates the `troupe dev` state file it reads (issue #13).
          "zod",
        ]);
        expect(tree.dependenciesOf("@troupe/protocol")).toEqual([
          "@troupe/addressing",
          "msgpackr",
          "zod",
        ]);
        expect(tree.dependenciesOf("@troupe/addressing")).toEqual(["zod"]);
        const installed = tree.installedNames();
        expect(installed).toEqual(
          expect.arrayContaining([
            "@nats-io/jetstream",
            "@nats-io/nats-core",
            "@nats-io/transport-node",
            "msgpackr",
            "zod",
          ]),
        );
        expect(
          installed.filter((name) => matching([name], CLIENT_TREE_ALLOWED).length === 0),
        ).toEqual([]);
        expect(matching(installed, HEAVY)).toEqual([]);
      },
      LS_TIMEOUT_MS,
    );

    it(
      "imports every entry of @troupe/client, @troupe/protocol and @troupe/addressing from dist with a plain node, with the exports of the sources",
      async () => {
        const specifiers = [
          "@troupe/client",
          "@troupe/client/internal",
          "@troupe/protocol",
          "@troupe/protocol/internal",
          "@troupe/addressing",
          "@troupe/addressing/internal",
        ];
        const names = await clientProject.exportNames(specifiers, NODE_TIMEOUT_MS);
        for (const specifier of specifiers) {
          // Here (vitest) the specifier resolves to the TypeScript sources.
          const source = Object.keys((await import(specifier)) as object).sort();
          expect(names[specifier], specifier).toEqual(source);
        }
        expect(names["@troupe/client"]).toContain("TroupeClient");
      },
      NODE_TIMEOUT_MS,
    );

    it(
      "sends to a session and reads its stored events through TroupeClient against a real NATS",
      async () => {
        await using servers = await startTestServers({ shardCount: SHARD_COUNT });
        const prefix = "packed_client";
        const sessionId = "packed-s1";
        // The streams a host would create, and one event it would have published.
        const nats = await connect({ servers: servers.natsUrl });
        try {
          await ensureStreams(await jetstreamManager(nats), streamNames(prefix), {
            journalRetentionMs: 3_600_000,
            eventRetentionMs: 3_600_000,
            transcriptRetentionMs: 0,
            duplicateWindowMs: 120_000,
          });
          const type: EventType = "session.idle";
          const { bytes, contentType } = encodeEvent({
            v: 1,
            id: `session/${sessionId}:ev:1`,
            type,
            payload: { sessionId, lastRunId: "r1" },
            meta: { actor: `session/${sessionId}`, seq: 1, timestampMs: Date.now() },
          });
          const eventHeaders = headers();
          eventHeaders.set(CONTENT_TYPE_HEADER, contentType);
          await jetstream(nats).publish(
            eventSubject({ kind: "session", id: sessionId }, type),
            bytes,
            {
              headers: eventHeaders,
            },
          );
        } finally {
          await nats.close();
        }

        const result = await clientProject.runApp(
          CLIENT_APP,
          { TROUPE_NATS_URL: servers.natsUrl, TROUPE_PREFIX: prefix, SESSION_ID: sessionId },
          APP_TIMEOUT_MS,
        );

        const receipt = {
          sessionId,
          messageId: "cm:packed-1",
          clientMessageId: "packed-1",
          streamSequence: 1,
        };
        expect(result).toEqual({
          first: { ...receipt, duplicate: false },
          again: { ...receipt, duplicate: true },
          storedEvents: 1,
          lastSequence: 1,
          events: [{ sequence: 1, type: "session.idle" }],
        });
      },
      APP_TIMEOUT_MS + 10_000,
    );
  });

  describe("a plain xstate counter on @troupe/runtime alone", () => {
    it(
      "installs no ai, @ai-sdk/*, @troupe/agents or @troupe/machines anywhere in the tree",
      async () => {
        const tree = await runtimeProject.productionTree(LS_TIMEOUT_MS);
        expect(tree.topLevelNames()).toEqual(
          [
            "@troupe/addressing",
            "@troupe/protocol",
            "@troupe/replay",
            "@troupe/runtime",
            "@troupe/step",
            "@troupe/stores",
            ...RUNTIME_APP_REGISTRY_DEPENDENCIES,
          ].sort(),
        );
        expect(tree.dependenciesOf("@troupe/runtime")).toEqual(
          expect.arrayContaining([
            "@troupe/protocol",
            "@troupe/replay",
            "@troupe/step",
            "@troupe/stores",
          ]),
        );
        const installed = tree.installedNames();
        expect(installed).toEqual(expect.arrayContaining(["ioredis", "@nats-io/jetstream"]));
        expect(matching(installed, NOT_FOR_RUNTIME)).toEqual([]);
      },
      LS_TIMEOUT_MS,
    );

    it(
      "imports every entry of @troupe/runtime and the packages it re-exports from dist with a plain node, with the exports of the sources",
      async () => {
        const specifiers = [
          "@troupe/runtime",
          "@troupe/runtime/internal",
          "@troupe/step",
          "@troupe/step/internal",
          "@troupe/stores",
          "@troupe/stores/internal",
          "@troupe/replay",
        ];
        const names = await runtimeProject.exportNames(specifiers, NODE_TIMEOUT_MS);
        for (const specifier of specifiers) {
          const source = Object.keys((await import(specifier)) as object).sort();
          expect(names[specifier], specifier).toEqual(source);
        }
        expect(names["@troupe/runtime"]).toEqual(
          expect.arrayContaining(["ActorHost", "defineActorKind"]),
        );
      },
      NODE_TIMEOUT_MS,
    );

    it(
      "hosts the counter with a plain node against real NATS and Redis and counts every increment",
      async () => {
        await using servers = await startTestServers({ shardCount: SHARD_COUNT });
        const prefix = "packed_counter";
        const counterId = "packed-c1";

        const result = await runtimeProject.runApp(
          COUNTER_APP,
          {
            TROUPE_NATS_URL: servers.natsUrl,
            TROUPE_REDIS_URL: servers.redisUrl,
            TROUPE_PREFIX: prefix,
            TROUPE_SHARD_COUNT: String(SHARD_COUNT),
            TROUPE_LOG_LEVEL: "warn",
            COUNTER_ID: counterId,
            COUNTER_INCREMENTS: "5",
            COUNTER_TIMEOUT_MS: "15000",
          },
          APP_TIMEOUT_MS,
        );

        // by = 1, 2, 3, 4, 5: one change per increment, in order, with gapless event seqs.
        expect(result).toMatchObject({
          inboxSequences: [1, 2, 3, 4, 5],
          changed: [
            { count: 1, seq: 1 },
            { count: 3, seq: 2 },
            { count: 6, seq: 3 },
            { count: 10, seq: 4 },
            { count: 15, seq: 5 },
          ],
          count: 15,
        });
        // The host committed the same count as the actor's snapshot.
        const redis = new Redis(servers.redisUrl);
        try {
          const stored = await new RedisSnapshotStore(
            redis,
            new RedisKeys(prefix, SHARD_COUNT),
          ).load(`counter/${counterId}`);
          expect((stored?.record.state as { context?: unknown } | undefined)?.context).toEqual({
            count: 15,
          });
        } finally {
          redis.disconnect();
        }
      },
      APP_TIMEOUT_MS + 10_000,
    );
  });
});
