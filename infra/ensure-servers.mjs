#!/usr/bin/env node
// Makes sure the integration tests can get a real nats-server (JetStream) and a
// real redis-server. Run from the repository root after `npm ci`:
//
//   node infra/ensure-servers.mjs
//
// Tries, in order:
//   1. both binaries on PATH or in /usr/sbin, /usr/local/sbin, /usr/local/bin;
//   2. a reachable container runtime (Docker, Podman, ...) found by
//      testcontainers: the tests then run nats:2.10 and redis:7 containers;
//   3. as root on Debian/Ubuntu: apt-get update && apt-get install -y
//      nats-server redis-server;
// and otherwise exits with status 1 and the install command for this platform.
//
// TROUPE_TEST_SERVERS=local skips step 2 (binaries required);
// TROUPE_TEST_SERVERS=containers accepts only step 2.
//
// Plain JavaScript on purpose: infra/ holds no TypeScript and this must run
// before anything is built. services/cli/src/local-servers/ holds the TypeScript
// twin of the binary search and install hint used by the tests.

import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";

const serverNames = ["nats-server", "redis-server"];
const searchDirectories = ["/usr/sbin", "/usr/local/sbin", "/usr/local/bin"];
const containerProbeTimeoutMs = 750;
const mode = process.env.TROUPE_TEST_SERVERS ?? "auto";

function findBinary(name) {
  const directories = [
    ...(process.env.PATH ?? "").split(delimiter).filter((directory) => directory !== ""),
    ...searchDirectories,
  ];
  for (const directory of directories) {
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function versionOf(binary) {
  try {
    return execFileSync(binary, ["--version"], { encoding: "utf8", timeout: 5_000 }).trim();
  } catch (error) {
    return `version unknown (${error.message})`;
  }
}

function findBinaries() {
  return Object.fromEntries(serverNames.map((name) => [name, findBinary(name)]));
}

function reportBinaries(binaries) {
  for (const [name, path] of Object.entries(binaries)) {
    console.log(`  ${name}: ${path} (${versionOf(path)})`);
  }
}

/**
 * Resolves to a description of the container runtime, or undefined. Loading
 * testcontainers is not bounded (a cold disk must not hide a runtime); the
 * probe itself is: without a runtime it fails in a few ms, and a runtime that
 * does not answer within containerProbeTimeoutMs counts as absent.
 */
async function probeContainerRuntime() {
  let getContainerRuntimeClient;
  try {
    ({ getContainerRuntimeClient } = await import("testcontainers"));
  } catch (error) {
    console.log(`  testcontainers could not be loaded (${error.message}); run npm ci first`);
    return undefined;
  }
  const startedAt = performance.now();
  let timer;
  try {
    const timeout = new Promise((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), containerProbeTimeoutMs);
    });
    const client = await Promise.race([getContainerRuntimeClient(), timeout]);
    const runtime = client.info.containerRuntime;
    return `${runtime.host} (${runtime.operatingSystem}, API ${runtime.serverVersion})`;
  } catch (error) {
    const elapsedMs = Math.round(performance.now() - startedAt);
    console.log(`  no container runtime (${error.message}; probe took ${elapsedMs} ms)`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function readOsRelease() {
  try {
    return readFileSync("/etc/os-release", "utf8");
  } catch {
    return "";
  }
}

function isDebianLike() {
  return readOsRelease()
    .split("\n")
    .filter((line) => line.startsWith("ID=") || line.startsWith("ID_LIKE="))
    .flatMap((line) =>
      line
        .slice(line.indexOf("=") + 1)
        .replaceAll('"', "")
        .split(" "),
    )
    .some((identifier) => identifier === "debian" || identifier === "ubuntu");
}

function installHint() {
  if (process.platform === "darwin") return "brew install nats-server redis";
  if (process.platform === "linux" && isDebianLike()) {
    return "apt-get install -y nats-server redis-server   (as root, after apt-get update)";
  }
  return (
    "see https://docs.nats.io/running-a-nats-service/introduction/installation and " +
    "https://redis.io/docs/latest/operate/oss_and_stack/install/"
  );
}

function run(command, args) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

function fail(missing) {
  console.error(
    `ensure-servers: ${missing.join(" and ")} not found, and no container runtime is reachable.\n` +
      `Install them with: ${installHint()}\n` +
      "or start Docker/Podman so the tests can use containers.",
  );
  process.exit(1);
}

const binaries = findBinaries();
const missing = serverNames.filter((name) => binaries[name] === undefined);

if (mode !== "containers" && missing.length === 0) {
  console.log("ensure-servers: local binaries found; tests run them on free loopback ports.");
  reportBinaries(binaries);
  process.exit(0);
}

if (mode !== "local") {
  console.log("ensure-servers: looking for a container runtime ...");
  const runtime = await probeContainerRuntime();
  if (runtime !== undefined) {
    console.log(
      `ensure-servers: container runtime at ${runtime}; tests use nats:2.10 and redis:7.`,
    );
    process.exit(0);
  }
  if (mode === "containers") {
    console.error("ensure-servers: TROUPE_TEST_SERVERS=containers but no runtime is reachable.");
    process.exit(1);
  }
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (process.platform === "linux" && isRoot && isDebianLike()) {
  console.log(`ensure-servers: installing ${missing.join(" and ")} from the OS packages ...`);
  const installed =
    run("apt-get", ["update"]) && run("apt-get", ["install", "-y", "nats-server", "redis-server"]);
  const after = findBinaries();
  const stillMissing = serverNames.filter((name) => after[name] === undefined);
  if (installed && stillMissing.length === 0) {
    console.log("ensure-servers: installed; tests run them on free loopback ports.");
    reportBinaries(after);
    process.exit(0);
  }
  fail(stillMissing.length === 0 ? missing : stillMissing);
}

fail(missing);
