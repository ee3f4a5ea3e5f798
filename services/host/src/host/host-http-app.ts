import { Hono } from "hono";
import { PROMETHEUS_CONTENT_TYPE } from "../telemetry/host-metrics-endpoint.js";
import type { HostHealth } from "./host-health.js";

/** What `/metrics` reads: the Prometheus text of the host's metrics (`HostMetricsEndpoint`). */
export interface MetricsScrape {
  scrape(): Promise<string>;
}

/**
 * The HTTP routes of a host process (docs/decisions/0034), as a Hono app so later routes
 * (`/metrics`) are added beside them:
 *
 * - `GET /healthz` — liveness: `200 {"status":"ok"}` whenever the process and
 *   its event loop answer (also while starting and draining);
 * - `GET /readyz` — readiness: `200 {"phase":"ready",hostId,ownedShards,members}`
 *   once `ActorHost.start` resolved; `503` with `phase` `starting` before that
 *   and `draining` from SIGTERM on, so a load balancer or Kubernetes stops
 *   counting the pod while it hands its shards over; `503` `stalled` while the
 *   latest 5 s window of the event loop had a delay over a quarter of the lease
 *   TTL (docs/decisions/0047). The body carries `eventLoopDelayMs: { p99, max }`.
 * - `GET /metrics` (when `metrics` is given) — the host's
 *   OpenTelemetry metrics in the Prometheus text format (0.0.4), collected at
 *   each request.
 *
 * All answer `Cache-Control: no-store`; any other path is 404.
 *
 * @param health - the process's health state.
 * @param metrics - the host's metrics; absent: no `/metrics` route.
 * @returns the app (serve it with `serveHostHttp`, or call `app.request` in tests).
 */
export function createHostHttpApp(health: HostHealth, metrics?: MetricsScrape): Hono {
  const app = new Hono();
  app.use(async (context, next) => {
    await next();
    context.header("Cache-Control", "no-store");
  });
  app.get("/healthz", (context) => context.json({ status: "ok" }));
  app.get("/readyz", (context) => {
    const readiness = health.readiness();
    return context.json(readiness, readiness.phase === "ready" ? 200 : 503);
  });
  if (metrics !== undefined) {
    app.get("/metrics", async (context) =>
      context.body(await metrics.scrape(), 200, { "Content-Type": PROMETHEUS_CONTENT_TYPE }),
    );
  }
  return app;
}
