import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { startLocalNatsServer, type LocalNatsServer } from "@troupe/dev";
import { streamNames, type StreamNames } from "@troupe/protocol";
import { ensureStreams } from "@troupe/runtime/internal";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testDataDirPrefix } from "../harness/test-run-marker.js";

/** A local nats-server holding one deployment's streams, and a connection to it. */
export interface StreamsServer {
  readonly server: LocalNatsServer;
  readonly nats: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** The deployment's stream names (`streamNames(prefix)`). */
  readonly streams: StreamNames;
  /** Closes the connection, stops the server and removes its store. */
  stop(): Promise<void>;
}

/**
 * Starts a nats-server with JetStream on free loopback ports (8 inbox shards)
 * and creates the streams of deployment `prefix` the way a host would
 * (`ensureStreams`, 1 h retention of journal and events, no transcript
 * retention), with no host: for tests of what clients read and write.
 *
 * @param prefix - deployment prefix, e.g. `"allev"`.
 * @throws from `startLocalNatsServer` (`ServerBinaryMissingError`, `LocalServerStartError`).
 */
export async function startStreamsServer(prefix: string): Promise<StreamsServer> {
  const storeDir = await mkdtemp(join(tmpdir(), testDataDirPrefix("nats")));
  const server = await startLocalNatsServer({
    storeDir,
    shardCount: 8,
    dataDirPrefix: testDataDirPrefix("nats"),
  });
  let nats: NatsConnection | undefined;
  const stop = async () => {
    await nats?.close();
    await server.stop();
    await rm(storeDir, { recursive: true, force: true });
  };
  const streams = streamNames(prefix);
  let jsm: JetStreamManager;
  try {
    nats = await connect({ servers: server.url });
    jsm = await jetstreamManager(nats);
    await ensureStreams(jsm, streams, {
      journalRetentionMs: 3_600_000,
      eventRetentionMs: 3_600_000,
      transcriptRetentionMs: 0,
      duplicateWindowMs: 120_000,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    server,
    nats,
    js: jetstream(nats),
    jsm,
    streams,
    stop,
  };
}
