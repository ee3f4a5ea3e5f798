import { metrics } from "@opentelemetry/api";
import { HostMetrics } from "@troupe/runtime/internal";
import { afterEach, describe, expect, it } from "vitest";
import { HostHealth } from "../host/host-health.js";
import { createHostHttpApp } from "../host/host-http-app.js";
import {
  PROMETHEUS_CONTENT_TYPE,
  startHostMetricsEndpoint,
  type HostMetricsEndpoint,
} from "./host-metrics-endpoint.js";

let endpoint: HostMetricsEndpoint | undefined;

afterEach(async () => {
  await endpoint?.shutdown();
  endpoint = undefined;
  metrics.disable();
});

describe("the host's /metrics (issue #18)", () => {
  it("serves the runtime's instruments in the Prometheus text format, labelled with the host id", async () => {
    endpoint = startHostMetricsEndpoint({ hostId: "host-a", serviceName: "troupe-host" });
    expect(endpoint.registered).toBe(true);
    // Created after the registration, as `troupe host` does before ActorHost.start.
    const hostMetrics = new HostMetrics({
      shardsOwned: () => 7,
      inboxLag: () => [[3, 2]],
      timersArmed: () => Promise.resolve(4),
    });
    for (let index = 0; index < 3; index += 1)
      hostMetrics.messageProcessed("counter", "committed", 0.002);
    hostMetrics.messageProcessed("counter", "rejected", 0.001);
    hostMetrics.deadLettered("counter", "invalid_message");

    const app = createHostHttpApp(new HostHealth(), endpoint);
    const response = await app.request("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(PROMETHEUS_CONTENT_TYPE);
    const text = await response.text();
    const sample = (name: string, labels: Record<string, string>) =>
      samples(text, name).find(([found]) =>
        Object.entries({ ...labels, troupe_host_id: "host-a" }).every(
          ([key, value]) => found[key] === value,
        ),
      )?.[1];
    const counter = { troupe_actor_kind: "counter" };
    expect(
      sample("troupe_messages_processed_total", { ...counter, troupe_step_outcome: "committed" }),
    ).toBe(3);
    expect(
      sample("troupe_messages_processed_total", { ...counter, troupe_step_outcome: "rejected" }),
    ).toBe(1);
    expect(sample("troupe_step_duration_count", counter)).toBe(4);
    // Buckets in seconds: the four steps (1–2 ms) fall at or below 2.5 ms, none at or below 1 ms.
    expect(sample("troupe_step_duration_bucket", { ...counter, le: "0.001" })).toBe(1);
    expect(sample("troupe_step_duration_bucket", { ...counter, le: "0.0025" })).toBe(4);
    expect(
      sample("troupe_dead_letters_total", {
        ...counter,
        troupe_dead_letter_code: "invalid_message",
      }),
    ).toBe(1);
    expect(sample("troupe_shards_owned", {})).toBe(7);
    expect(sample("troupe_inbox_lag", { troupe_shard: "3" })).toBe(2);
    expect(sample("troupe_timers_armed", {})).toBe(4);
    expect(sample("target_info", { service_name: "troupe-host" })).toBe(1);
  });

  it("is absent from the app when the host has no metrics", async () => {
    const app = createHostHttpApp(new HostHealth());
    expect((await app.request("/metrics")).status).toBe(404);
  });
});

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
