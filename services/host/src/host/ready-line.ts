/**
 * The line a host process prints on stdout once it serves (`troupe host --json`,
 * the test fixtures), which `troupe dev` and the test harness wait for:
 * `{"ready":true,"hostId":…,"pid":…,"agents":[…],"models":{…}}`.
 */
export interface ReadyLine {
  readonly hostId: string;
  /** Process id; present when the host reports it. */
  readonly pid?: number;
  /** Names of the agents served; empty when the host serves no agents. */
  readonly agents: readonly string[];
  /** The model each agent uses, by agent name (`troupe host` reports it). */
  readonly models?: Readonly<Record<string, string>>;
  /** Base URL of the host's health endpoint (`troupe host --health-port`). */
  readonly healthUrl?: string;
  /** URL of the host's Prometheus metrics (`<healthUrl>/metrics`). */
  readonly metricsUrl?: string;
}

/**
 * Formats the ready line, newline included.
 *
 * @param ready - what the host reports.
 */
export function formatReadyLine(ready: ReadyLine): string {
  return `${JSON.stringify({ ready: true, ...ready })}\n`;
}

/**
 * Reads a ready line.
 *
 * @param line - one line of a host's stdout (its log lines are JSON too).
 * @returns the ready line, or `undefined` for any other line.
 */
export function parseReadyLine(line: string): ReadyLine | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const parsed = JSON.parse(line) as {
      ready?: unknown;
      hostId?: unknown;
      pid?: unknown;
      agents?: unknown;
      models?: unknown;
      healthUrl?: unknown;
      metricsUrl?: unknown;
    };
    if (parsed.ready !== true || typeof parsed.hostId !== "string") return undefined;
    return {
      hostId: parsed.hostId,
      ...(typeof parsed.pid === "number" ? { pid: parsed.pid } : {}),
      agents: Array.isArray(parsed.agents) ? parsed.agents.map(String) : [],
      ...(typeof parsed.models === "object" && parsed.models !== null
        ? {
            models: Object.fromEntries(
              Object.entries(parsed.models).map(([agent, model]) => [agent, String(model)]),
            ),
          }
        : {}),
      ...(typeof parsed.healthUrl === "string" ? { healthUrl: parsed.healthUrl } : {}),
      ...(typeof parsed.metricsUrl === "string" ? { metricsUrl: parsed.metricsUrl } : {}),
    };
  } catch {
    return undefined;
  }
}
