import { TroupeError } from "@troupe/protocol";

/**
 * The NATS servers refused the replicas or placement asked for a deployment's
 * stream (`streamReplicas`, `streamPlacement`), on creation or on update
 * (docs/decisions/0032). Usual causes, with JetStream's error codes (nats-server 2.9.10):
 * more than 1 replica on a server without clustering (`10074`, "replicas > 1
 * not supported in non-clustered mode"; on an update the server accepts it and
 * keeps one copy, so the host refuses it itself, `serverCode` undefined), more
 * replicas than JetStream servers, a placement cluster that does not exist or
 * tags no server carries (`10005`, "no suitable peers for placement"). The
 * stream is left as it was; the host does not start.
 *
 * Code `invalid_options`, not retryable (start enough servers, or change the
 * setting). `details`: `{ stream, replicas, placement, serverCode, serverDescription }`.
 */
export class StreamSettingsRefusedError extends TroupeError {
  constructor(
    readonly stream: string,
    readonly replicas: number,
    readonly placement:
      { readonly cluster?: string; readonly tags?: readonly string[] } | undefined,
    readonly serverCode: number | undefined,
    readonly serverDescription: string,
    options: { readonly cause?: unknown } = {},
  ) {
    const where =
      placement === undefined
        ? ""
        : ` placed on${placement.cluster === undefined ? "" : ` cluster ${placement.cluster}`}` +
          `${placement.tags === undefined ? "" : ` servers tagged ${placement.tags.join(", ")}`}`;
    super(
      "invalid_options",
      `the NATS servers refused ${replicas} replica${replicas === 1 ? "" : "s"}${where} for stream ${stream}: ` +
        `${serverDescription}${serverCode === undefined ? "" : ` (JetStream error ${serverCode})`}; ` +
        "run a JetStream cluster with at least that many servers (matching the placement), " +
        "or lower streamReplicas (--stream-replicas, TROUPE_STREAM_REPLICAS)",
      {
        retryable: false,
        details: { stream, replicas, placement, serverCode, serverDescription },
        cause: options.cause,
      },
    );
    this.name = "StreamSettingsRefusedError";
  }
}
