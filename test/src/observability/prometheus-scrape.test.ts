/**
 * Host metrics end to end (issue #18): two real `troupe host` processes serve
 * `/metrics` on their health ports; the messages sent are counted once, by the
 * host that owns each actor's shard, and the two hosts' `troupe.shards.owned`
 * add up to the shard count. Then (Must show #2) a real Prometheus — Debian's
 * `prometheus` package, started here on a loopback port with a temporary
 * config and storage, never the system service — scrapes both hosts every
 * second and a PromQL query over its HTTP API returns the messages processed.
 *
 * The Prometheus part is skipped, saying so, only where no `prometheus`
 * binary is installed (`apt-get install prometheus`, or set TROUPE_PROMETHEUS
 * to its path); `.ci/run` installs it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstream, type JetStreamClient } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { parseReadyLine } from "@troupe/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";
import { testRunMarker } from "../harness/test-run-marker.js";
import {
  startTroupeServerProcess,
  type TroupeServerProcess,
} from "../support/troupe-server-process.js";
import { waitFor } from "../support/wait-for.js";

const prometheusPath = [process.env.TROUPE_PROMETHEUS, "/usr/bin/prometheus"].find(
  (path): path is string => path !== undefined && path !== "" && existsSync(path),
);
if (prometheusPath === undefined) {
  process.stderr.write(
    "prometheus-scrape.test.ts: the real-Prometheus test is SKIPPED — no prometheus binary at /usr/bin/prometheus (apt-get install prometheus, or set TROUPE_PROMETHEUS).\n",
  );
}

const MESSAGES = 40;
const SHARDS = 16;

/** The samples of one metric in a Prometheus text exposition: `[labels, value]`. */
function samples(text: string, name: string): [Record<string, string>, number][] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const labels: Record<string, string> = {};
      for (const [, key, value] of line.matchAll(/(\w+)="([^"]*)"/g)) labels[key!] = value!;
      return [labels, Number(line.slice(line.lastIndexOf(" ") + 1))];
    });
}

const sum = (text: string, name: string) =>
  samples(text, name).reduce((total, [, value]) => total + value, 0);

async function scrape(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  return response.text();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("two troupe hosts' /metrics (issue #18)", () => {
  let servers: TestServers;
  let nats: NatsConnection;
  let js: JetStreamClient;
  let home: string;
  const hosts: TroupeServerProcess[] = [];
  const metricsUrls: string[] = [];

  const metricsUrlOf = (stdout: string) =>
    stdout
      .split("\n")
      .map((line) => parseReadyLine(line))
      .find((ready) => ready?.metricsUrl !== undefined)?.metricsUrl;

  beforeAll(async () => {
    servers = await startTestServers({ shardCount: SHARDS });
    nats = await connect({ servers: servers.natsUrl });
    js = jetstream(nats);
    home = await mkdtemp(join(tmpdir(), `${testRunMarker()}metrics-`));
    // Started together: each waits out the membership settling once, not one after the other.
    hosts.push(
      ...(await Promise.all(
        ["metrics-a", "metrics-b"].map((hostId) =>
          startTroupeServerProcess(
            home,
            [
              "host",
              ...["--nats", servers.natsUrl, "--redis", servers.redisUrl],
              ...["--shards", String(SHARDS), "--host-id", hostId, "--health-port", "0", "--json"],
            ],
            {
              ready: (stdout) => metricsUrlOf(stdout) !== undefined,
              name: `troupe host ${hostId}`,
            },
          ),
        ),
      )),
    );
    metricsUrls.push(...hosts.map((host) => metricsUrlOf(host.stdout())!));
    // The second host's fair share moves over from the first: wait until it did.
    await waitFor(
      async () => {
        const owned = await Promise.all(
          metricsUrls.map(async (url) => sum(await scrape(url), "troupe_shards_owned")),
        );
        return owned[0] === SHARDS / 2 && owned[1] === SHARDS / 2;
      },
      { timeoutMs: 30_000, intervalMs: 200, description: "each host owns half the shards" },
    );
    // Messages of a type no agent kind accepts: each is rejected (dead-lettered)
    // by the host owning the actor's shard, without creating the actor.
    for (let index = 0; index < MESSAGES; index += 1) {
      await js.publish(
        `troupe.session.metrics-${index}.in`,
        new TextEncoder().encode('{"type":"metrics.probe"}'),
      );
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.stop()));
    await nats?.close();
    await servers?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("counts every message once, on the host owning its shard, and the shards each owns", async () => {
    expect(metricsUrls).toHaveLength(2);
    for (const url of metricsUrls) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    let texts: string[] = [];
    await waitFor(
      async () => {
        texts = await Promise.all(metricsUrls.map((url) => scrape(url)));
        const total = (name: string) => texts.reduce((all, text) => all + sum(text, name), 0);
        // A message is counted when its step is done, its ack (the lag) and
        // dead letter a moment later: wait for all three.
        return (
          total("troupe_messages_processed_total") >= MESSAGES &&
          total("troupe_dead_letters_total") >= MESSAGES &&
          total("troupe_inbox_lag") === 0
        );
      },
      { timeoutMs: 30_000, intervalMs: 200, description: `${MESSAGES} messages processed` },
    );
    const processed = texts.map((text) =>
      samples(text, "troupe_messages_processed_total").map(([labels, value]) => ({
        kind: labels["troupe_actor_kind"],
        outcome: labels["troupe_step_outcome"],
        host: labels["troupe_host_id"],
        value,
      })),
    );
    // Every message once: rejected, by the session kind, split between the two hosts.
    expect(processed.flat().reduce((total, { value }) => total + value, 0)).toBe(MESSAGES);
    for (const [index, hostId] of ["metrics-a", "metrics-b"].entries()) {
      expect(processed[index]!.length).toBeGreaterThan(0);
      for (const series of processed[index]!)
        expect(series).toMatchObject({ kind: "session", outcome: "rejected", host: hostId });
    }
    const deadLetters = texts.map((text) => sum(text, "troupe_dead_letters_total"));
    expect(deadLetters[0]! + deadLetters[1]!).toBe(MESSAGES);
    expect(texts.map((text) => sum(text, "troupe_shards_owned"))).toEqual([SHARDS / 2, SHARDS / 2]);
    // One inbox-lag series per owned shard, all drained; one step timing per message.
    for (const text of texts) {
      expect(samples(text, "troupe_inbox_lag")).toHaveLength(SHARDS / 2);
      expect(sum(text, "troupe_inbox_lag")).toBe(0);
    }
    expect(texts.reduce((total, text) => total + sum(text, "troupe_step_duration_count"), 0)).toBe(
      MESSAGES,
    );
  }, 60_000);

  it.skipIf(prometheusPath === undefined)(
    "a real Prometheus scrapes both hosts and PromQL returns the messages processed",
    async () => {
      const port = await freePort();
      const directory = await mkdtemp(join(tmpdir(), `${testRunMarker()}prometheus-`));
      const targets = metricsUrls.map((url) => new URL(url).host);
      await writeFile(
        join(directory, "prometheus.yml"),
        [
          "global:",
          "  scrape_interval: 1s",
          "  scrape_timeout: 1s",
          "scrape_configs:",
          "  - job_name: troupe",
          `    static_configs: [{ targets: [${targets.map((target) => `"${target}"`).join(", ")}] }]`,
          "",
        ].join("\n"),
      );
      let output = "";
      const prometheus: ChildProcess = spawn(
        prometheusPath!,
        [
          `--config.file=${join(directory, "prometheus.yml")}`,
          `--storage.tsdb.path=${join(directory, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      prometheus.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      prometheus.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<void>((resolve) => prometheus.once("exit", () => resolve()));
      const query = async (promql: string): Promise<number | undefined> => {
        const response = await fetch(
          `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`,
          { signal: AbortSignal.timeout(5_000) },
        );
        const body = (await response.json()) as {
          status: string;
          data: { result: { value: [number, string] }[] };
        };
        const value = body.status === "success" ? body.data.result[0]?.value[1] : undefined;
        return value === undefined ? undefined : Number(value);
      };
      try {
        let processed: number | undefined;
        await waitFor(
          async () => {
            processed = await query("sum(troupe_messages_processed_total)");
            return processed === MESSAGES && (await query('count(up{job="troupe"} == 1)')) === 2;
          },
          {
            timeoutMs: 30_000,
            intervalMs: 250,
            description: `Prometheus to report ${MESSAGES} messages processed by 2 live targets (last: ${String(processed)}; its output: ${output.slice(-2_000)})`,
          },
        );
        expect(processed).toBe(MESSAGES);
        expect(await query("sum(troupe_shards_owned)")).toBe(SHARDS);
        expect(
          await query(
            'sum by (troupe_step_outcome) (troupe_messages_processed_total{troupe_actor_kind="session"})',
          ),
        ).toBe(MESSAGES);
        expect(
          await query("count(count by (troupe_host_id) (troupe_messages_processed_total))"),
        ).toBe(2);
      } finally {
        prometheus.kill("SIGTERM");
        const timer = setTimeout(() => prometheus.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
        await rm(directory, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
