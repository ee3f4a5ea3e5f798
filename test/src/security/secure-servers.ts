import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { connect as connectTcp } from "node:net";
import { join } from "node:path";
import { findFreePort, findServerBinary } from "@troupe/dev";
import { renderNatsServerConfig } from "@troupe/dev/internal";
import { waitFor } from "../support/wait-for.js";
import type { TestCertificates } from "./test-certificates.js";

/** A server process started by this file's helpers. */
export interface SecureServer {
  readonly port: number;
  /** The process's output so far. */
  readonly output: () => string;
  /** SIGTERM, then waits for the exit (SIGKILL after 5 000 ms). */
  readonly stop: () => Promise<void>;
}

/**
 * Starts `nats-server` (JetStream, Troupe's inbox mapping) that requires TLS
 * with a client certificate signed by the test CA (`verify: true`) and one of
 * the users given (issue #17).
 *
 * @param folder - data folder (config, JetStream store).
 * @param certificates - the test PKI.
 * @param users - the `authorization.users` entries, as nats-server config text
 *   (e.g. `{ user: "a", password: "b" }`, `{ nkey: "U…" }`).
 * @param shardCount - shards of the inbox mapping.
 */
export async function startTlsNatsServer(
  folder: string,
  certificates: TestCertificates,
  users: readonly string[],
  shardCount: number,
): Promise<SecureServer> {
  const port = await findFreePort("127.0.0.1");
  const config = [
    renderNatsServerConfig({ host: "127.0.0.1", port, storeDir: join(folder, "js"), shardCount }),
    "tls {",
    `  cert_file: ${JSON.stringify(certificates.serverCertFile)}`,
    `  key_file: ${JSON.stringify(certificates.serverKeyFile)}`,
    `  ca_file: ${JSON.stringify(certificates.caFile)}`,
    "  verify: true",
    "  timeout: 5",
    "}",
    "authorization {",
    `  users: [${users.join(", ")}]`,
    "}",
    "",
  ].join("\n");
  const path = join(folder, "nats-server.conf");
  await writeFile(path, config);
  const binary = findServerBinary("nats-server") ?? "nats-server";
  return await startServer(binary, ["-c", path], port);
}

/**
 * Starts `nats-server` (JetStream on, Troupe's inbox mapping in the global
 * account) with `extraConfig` appended, e.g. the `accounts` block of
 * `renderTenantsConfig` (issue #17).
 *
 * @param folder - data folder (config, JetStream store).
 * @param extraConfig - nats-server config text.
 * @param shardCount - shards of the global account's inbox mapping.
 */
export async function startConfiguredNatsServer(
  folder: string,
  extraConfig: string,
  shardCount: number,
): Promise<SecureServer> {
  const port = await findFreePort("127.0.0.1");
  const config = [
    renderNatsServerConfig({ host: "127.0.0.1", port, storeDir: join(folder, "js"), shardCount }),
    extraConfig,
  ].join("\n");
  const path = join(folder, "nats-server.conf");
  await writeFile(path, config);
  return await startServer(findServerBinary("nats-server") ?? "nats-server", ["-c", path], port);
}

/**
 * Starts `redis-server` on a TLS port only (`port 0`), requiring a client
 * certificate of the test CA, with the `default` user off and one ACL user.
 *
 * @param folder - data folder.
 * @param certificates - the test PKI.
 * @param acl - the user's name and password; its rules are `~* &* +@all`.
 */
export async function startTlsRedisServer(
  folder: string,
  certificates: TestCertificates,
  acl: { readonly user: string; readonly password: string },
): Promise<SecureServer> {
  const port = await findFreePort("127.0.0.1");
  const config = [
    "port 0",
    "bind 127.0.0.1",
    `tls-port ${port}`,
    `tls-cert-file ${certificates.serverCertFile}`,
    `tls-key-file ${certificates.serverKeyFile}`,
    `tls-ca-cert-file ${certificates.caFile}`,
    "tls-auth-clients yes",
    'save ""',
    "appendonly no",
    `dir ${folder}`,
    "user default off",
    `user ${acl.user} on >${acl.password} ~* &* +@all`,
    "",
  ].join("\n");
  const path = join(folder, "redis.conf");
  await writeFile(path, config);
  const binary = findServerBinary("redis-server") ?? "redis-server";
  return await startServer(binary, [path], port);
}

async function startServer(binary: string, args: string[], port: number): Promise<SecureServer> {
  const child: ChildProcess = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit");
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    process.removeListener("exit", killOnExit);
  });
  const stop = async () => {
    if (hasExited) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitFor(async () => !hasExited && (await accepts(port)), {
      timeoutMs: 15_000,
      description: `${binary} listening on ${port}`,
    });
  } catch (error) {
    await stop();
    throw new Error(`${binary} did not start:\n${output}`, { cause: error });
  }
  return { port, output: () => output, stop };
}

async function accepts(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = connectTcp({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
