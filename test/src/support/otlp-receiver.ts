import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as an OTLP/HTTP JSON export carries it, with its resource's attributes. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP `SpanKind` number (1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** OTLP status code (0 unset, 1 ok, 2 error). */
  readonly statusCode: number;
  /** The exporting process's resource attributes (`service.name`, `process.pid`, …). */
  readonly resource: Readonly<Record<string, unknown>>;
}

/** A test OTLP/HTTP receiver of traces. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  /** Every span received so far, in arrival order. */
  spans(): readonly ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}

function valueOf(value: OtlpValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

/**
 * Starts an OTLP/HTTP receiver on loopback that takes `POST /v1/traces` in the
 * JSON encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, ids as hex,
 * https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding) and keeps
 * the spans; other signals are answered 200 and dropped.
 *
 * @returns the receiver.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
            resourceSpans?: {
              resource?: { attributes?: OtlpKeyValue[] };
              scopeSpans?: {
                spans?: {
                  traceId: string;
                  spanId: string;
                  parentSpanId?: string;
                  name: string;
                  kind: number;
                  attributes?: OtlpKeyValue[];
                  status?: { code?: number };
                }[];
              }[];
            }[];
          };
          for (const resourceSpans of body.resourceSpans ?? []) {
            const resource = attributesOf(resourceSpans.resource?.attributes);
            for (const scope of resourceSpans.scopeSpans ?? []) {
              for (const span of scope.spans ?? []) {
                received.push({
                  traceId: span.traceId,
                  spanId: span.spanId,
                  parentSpanId: span.parentSpanId ?? "",
                  name: span.name,
                  kind: span.kind,
                  attributes: attributesOf(span.attributes),
                  statusCode: span.status?.code ?? 0,
                  resource,
                });
              }
            }
          }
        } catch {
          response.writeHead(400).end();
          return;
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
