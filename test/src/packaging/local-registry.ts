import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { waitFor } from "../support/wait-for.js";
import { cleanEnvironment, runCommand } from "./run-command.js";

/** Verdaccio's command-line script (`verdaccio/bin/verdaccio`), run with this Node.js. */
const verdaccioBin = join(
  dirname(createRequire(import.meta.url).resolve("verdaccio/package.json")),
  "bin",
  "verdaccio",
);

/** How many times {@link LocalRegistry.start} tries a fresh port when Verdaccio exits at start. */
const START_ATTEMPTS = 3;
/** A readiness probe (`GET /-/ping`) gives up after this many ms. */
const PING_TIMEOUT_MS = 2_000;
/** After SIGTERM, how long {@link LocalRegistry.stop} waits before SIGKILL. */
const STOP_GRACE_MS = 10_000;

/**
 * The Verdaccio configuration: packages stored under `storage`, anyone may
 * read and publish `@troupe/*`, and there are no uplinks at all — a name
 * Verdaccio does not hold is a 404, never a copy from another registry. A
 * project sends only the `@troupe` scope here (`@troupe:registry=…` in its
 * `.npmrc`), everything else to its usual registry.
 */
const configuration = (storage: string) => `# Written by test/src/packaging/local-registry.ts.
storage: ${JSON.stringify(storage)}
packages:
  "@troupe/*":
    access: $all
    publish: $all
    unpublish: $all
  # Any other name: readable, so that it answers 404 (not held, no uplink) rather than 401.
  "**":
    access: $all
max_body_size: 50mb
web:
  enable: false
log:
  type: stdout
  format: pretty
  level: warn
`;

/**
 * A Verdaccio registry on loopback, started as a child process with its
 * storage in a folder of the caller's, for publishing the packed packages and
 * installing them by name.
 */
export class LocalRegistry {
  private constructor(
    /** `http://127.0.0.1:<port>/`, with the trailing slash npm's settings use. */
    readonly url: string,
    private readonly folder: string,
    private readonly child: ChildProcess,
    private readonly exited: Promise<void>,
    private readonly output: () => string,
  ) {}

  /**
   * Starts Verdaccio on `127.0.0.1` on a free port and waits until it answers
   * `GET /-/ping`.
   *
   * @param folder - for its configuration, storage and the publishing
   *   `.npmrc`; created if missing, left for the caller to remove.
   * @param timeoutMs - for each start, until the ping answers.
   * @throws Error with Verdaccio's output when it exits or does not answer in time.
   */
  static async start(folder: string, timeoutMs: number): Promise<LocalRegistry> {
    const storage = join(folder, "storage");
    const config = join(folder, "config.yaml");
    await mkdir(storage, { recursive: true });
    await writeFile(config, configuration(storage));
    for (let attempt = 1; ; attempt += 1) {
      // A port free now; another process may take it before Verdaccio binds it (then: the next attempt).
      const port = await freePort();
      const child = spawn(
        process.execPath,
        [verdaccioBin, "--config", config, "--listen", `127.0.0.1:${port}`],
        { cwd: folder, env: cleanEnvironment(), stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      let hasExited = false;
      const exited = new Promise<void>((resolve) =>
        child.once("close", () => {
          hasExited = true;
          resolve();
        }),
      );
      const url = `http://127.0.0.1:${port}/`;
      const registry = new LocalRegistry(url, folder, child, exited, () => output);
      try {
        await waitFor(
          async () =>
            hasExited ||
            (await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(PING_TIMEOUT_MS) })).ok,
          { timeoutMs, intervalMs: 100, description: `Verdaccio answering ${url}-/ping` },
        );
      } catch (error) {
        await registry.stop();
        throw new Error(`${(error as Error).message}\n--- Verdaccio's output\n${output}`, {
          cause: error,
        });
      }
      if (!hasExited) return registry;
      if (attempt === START_ATTEMPTS) {
        throw new Error(
          `Verdaccio exited at start ${START_ATTEMPTS} times; the last output:\n${output}`,
        );
      }
    }
  }

  /**
   * `npm publish <tarball>` to this registry, with a user configuration of its
   * own that holds only a made-up token for it (npm refuses to publish
   * without one; Verdaccio lets anyone publish `@troupe/*`).
   *
   * @param tarball - a `.tgz` that `npm pack` wrote.
   * @param timeoutMs - for the `npm publish`.
   */
  async publish(tarball: string, timeoutMs: number): Promise<void> {
    const userconfig = join(this.folder, "publish.npmrc");
    await writeFile(userconfig, `//${new URL(this.url).host}/:_authToken=local-registry-token\n`);
    await runCommand(
      "npm",
      ["publish", tarball, "--registry", this.url, "--userconfig", userconfig, "--no-progress"],
      { cwd: this.folder, timeoutMs },
    );
  }

  /**
   * The registry's document of a package (`GET /<name>`).
   *
   * @returns the document, or `undefined` when the registry answers 404.
   */
  async packument(name: string): Promise<Packument | undefined> {
    const response = await fetch(`${this.url}${name.replace("/", "%2f")}`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`GET ${name} from ${this.url}: HTTP ${response.status}`);
    return (await response.json()) as Packument;
  }

  /** Everything Verdaccio printed so far. */
  get log(): string {
    return this.output();
  }

  /** Stops Verdaccio (SIGTERM, SIGKILL after a grace period) and waits until it has exited. */
  async stop(): Promise<void> {
    // A no-op when it has exited already.
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** What the tests read of a registry's package document. */
export interface Packument {
  readonly name: string;
  readonly "dist-tags": Readonly<Record<string, string>>;
  readonly versions: Readonly<Record<string, { readonly dist: { readonly tarball: string } }>>;
}

/** A TCP port on 127.0.0.1 that was free when asked. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
