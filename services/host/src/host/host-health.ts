/**
 * What a host process reports on its health endpoint (docs/decisions/0034): `starting`
 * until `ActorHost.start` resolved (its initial share of shards is leased and
 * their consumers run), `ready` while it serves, `stalled` while the latest
 * 5 s window of its event loop had a delay over a quarter of the lease TTL
 * (synchronous work holds the host), `draining` from the moment
 * its graceful stop began (SIGTERM) until the process exits.
 */
export type HostPhase = "starting" | "ready" | "stalled" | "draining";

/** The few facts of a running host the health endpoint reads (an `ActorHost` has them). */
export interface HealthReportingHost {
  readonly hostId: string;
  readonly ownedShards: readonly number[];
  readonly members: readonly string[];
  readonly draining: boolean;
  /** The event loop's delay over the latest window (ms) and whether it passed the bound. */
  readonly eventLoopDelay?: {
    readonly p99Ms: number;
    readonly maxMs: number;
    readonly delayed: boolean;
  };
}

/** The body of `/readyz`: the phase, and the host's id, shards and members once started. */
export interface HostReadiness {
  readonly phase: HostPhase;
  readonly hostId?: string;
  /** Shards this host owns now. */
  readonly ownedShards?: number;
  /** Live hosts of the deployment at its last heartbeat. */
  readonly members?: number;
  /** The event loop's delay over the latest 5 s window, in ms (docs/decisions/0047). */
  readonly eventLoopDelayMs?: { readonly p99: number; readonly max: number };
}

/**
 * The health state of one host process: created before the host starts (so
 * liveness answers during the start), told the host once it runs.
 *
 * @example
 * const health = new HostHealth();
 * const host = await runHost(options);
 * health.started(host);
 */
export class HostHealth {
  #host: HealthReportingHost | undefined;

  /** Records the running host: from now on it is `ready` unless draining. */
  started(host: HealthReportingHost): void {
    this.#host = host;
  }

  /** The phase now (see {@link HostPhase}). */
  get phase(): HostPhase {
    if (this.#host === undefined) return "starting";
    if (this.#host.draining) return "draining";
    return this.#host.eventLoopDelay?.delayed === true ? "stalled" : "ready";
  }

  /** The `/readyz` body now. */
  readiness(): HostReadiness {
    const host = this.#host;
    if (host === undefined) return { phase: "starting" };
    return {
      phase: this.phase,
      hostId: host.hostId,
      ownedShards: host.ownedShards.length,
      members: host.members.length,
      ...(host.eventLoopDelay === undefined
        ? {}
        : {
            eventLoopDelayMs: {
              p99: host.eventLoopDelay.p99Ms,
              max: host.eventLoopDelay.maxMs,
            },
          }),
    };
  }
}
