import { metrics } from "@opentelemetry/api";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { ATTRIBUTES } from "@troupe/protocol";

/** `service.name` of a host process's metrics unless `OTEL_SERVICE_NAME` says otherwise. */
export const DEFAULT_HOST_SERVICE_NAME = "troupe-host";

/** Content type of the Prometheus text exposition format (0.0.4). */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Options of {@link startHostMetricsEndpoint}. */
export interface HostMetricsEndpointOptions {
  /** The host's id: resource attribute `troupe.host.id`, a label of every series. */
  readonly hostId: string;
  /** `service.name`; default `OTEL_SERVICE_NAME` or {@link DEFAULT_HOST_SERVICE_NAME}. */
  readonly serviceName?: string;
}

/** A host's metrics, registered globally and read in the Prometheus text format. */
export interface HostMetricsEndpoint {
  /** Whether this provider became the process's global meter provider (false: one was registered before). */
  readonly registered: boolean;
  /**
   * Collects every metric now: the Prometheus text exposition (0.0.4), with a
   * `# collection error` comment line per reading that failed.
   */
  scrape(): Promise<string>;
  /** Unregisters the provider and stops its reader. */
  shutdown(): Promise<void>;
}

/**
 * Creates the host process's OpenTelemetry `MeterProvider` with a Prometheus
 * reader that serves no port of its own (`preventServerStart`): the host's
 * health server answers `GET /metrics` with {@link HostMetricsEndpoint.scrape}
 * (docs/decisions/0038). Registers it as the global meter provider, so the runtime's and
 * the agents' instruments (`metrics.getMeter("troupe")`) record into it; call it
 * **before** `ActorHost.start`, which creates its instruments once. Resource:
 * `service.name` and `troupe.host.id` (also a label of every series, as
 * `troupe_host_id`, and of `target_info`).
 *
 * @param options - host id and service name.
 * @returns the endpoint (not registered when another provider already was).
 */
export function startHostMetricsEndpoint(options: HostMetricsEndpointOptions): HostMetricsEndpoint {
  const serviceName =
    options.serviceName ?? (process.env.OTEL_SERVICE_NAME || DEFAULT_HOST_SERVICE_NAME);
  const reader = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      "service.name": serviceName,
      "service.instance.id": options.hostId,
      [ATTRIBUTES.hostId]: options.hostId,
    }),
    readers: [reader],
  });
  const registered = metrics.setGlobalMeterProvider(provider);
  const serializer = new PrometheusSerializer(undefined, false, /^troupe\.host\.id$/);
  return {
    registered,
    async scrape() {
      const { resourceMetrics, errors } = await reader.collect();
      const comments = errors.map(
        (error) => `# collection error: ${String(error).replaceAll("\n", " ")}\n`,
      );
      return comments.join("") + serializer.serialize(resourceMetrics);
    },
    async shutdown() {
      if (registered) metrics.disable();
      await provider.shutdown();
    },
  };
}
