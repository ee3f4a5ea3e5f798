import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The span names of one OTLP/HTTP JSON trace export request
 * (`ExportTraceServiceRequest`: `resourceSpans[].scopeSpans[].spans[].name`).
 *
 * @param body - the request body, parsed JSON.
 * @returns one name per span, in the order sent.
 */
export function otlpSpanNames(body: unknown): string[] {
  const resourceSpans = (body as { resourceSpans?: unknown } | null)?.resourceSpans;
  if (!Array.isArray(resourceSpans)) return [];
  return resourceSpans.flatMap((resource: { scopeSpans?: { spans?: { name?: unknown }[] }[] }) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => (typeof span.name === "string" ? span.name : "")),
    ),
  );
}

/** A local OTLP/HTTP receiver counting the spans it is sent; see {@link startOtlpSink}. */
export interface OtlpSink {
  /** `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  /** Spans received so far, by name. */
  readonly spansByName: () => ReadonlyMap<string, number>;
  /** Spans received so far. */
  readonly spanCount: () => number;
  /** Export requests that were not JSON (e.g. protobuf: wrong `OTEL_EXPORTER_OTLP_PROTOCOL`). */
  readonly unreadableRequests: () => number;
  readonly close: () => Promise<void>;
}

/**
 * Starts an OTLP/HTTP receiver on loopback for the tracing benchmark (issue
 * #18): `POST /v1/traces` with a JSON body (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`)
 * is counted by span name and answered `200 {}`; other signals' paths are
 * answered `200 {}` and ignored. It keeps counts only, so a long run stays small.
 *
 * @returns the running sink.
 */
export async function startOtlpSink(): Promise<OtlpSink> {
  const byName = new Map<string, number>();
  let total = 0;
  let unreadable = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") {
        try {
          for (const name of otlpSpanNames(JSON.parse(Buffer.concat(chunks).toString("utf8")))) {
            byName.set(name, (byName.get(name) ?? 0) + 1);
            total += 1;
          }
        } catch {
          unreadable += 1;
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spansByName: () => byName,
    spanCount: () => total,
    unreadableRequests: () => unreadable,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
