import { Option, type Command } from "commander";
import { portNumber, positiveInteger } from "../settings/parse-number.js";

/**
 * Adds the options of `troupe host`'s health endpoint and drain (docs/decisions/0034):
 * `--health-port <port>` (`TROUPE_HEALTH_PORT`; off when absent, 0 = any free
 * port), `--health-host <address>` (`TROUPE_HEALTH_HOST`, default 127.0.0.1;
 * `0.0.0.0` in a container, where the kubelet probes the pod's address) and
 * `--drain-timeout <ms>` (`TROUPE_DRAIN_TIMEOUT_MS`, the host's `drainTimeoutMs`,
 * default 10 000); `--no-metrics` leaves `/metrics` (Prometheus)
 * off the health endpoint, where it is served by default.
 *
 * @param command - the `host` command.
 * @returns the same command.
 */
export function hostHealthOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--health-port <port>",
        "serve /healthz, /readyz and /metrics on this port (default: off; 0: any free port)",
      )
        .env("TROUPE_HEALTH_PORT")
        .argParser(portNumber),
    )
    .addOption(
      new Option(
        "--no-metrics",
        "do not serve the host's Prometheus metrics at /metrics on the health port",
      ),
    )
    .addOption(
      new Option(
        "--health-host <address>",
        "address of the health endpoint (default 127.0.0.1; 0.0.0.0 in a container)",
      ).env("TROUPE_HEALTH_HOST"),
    )
    .addOption(
      new Option(
        "--drain-timeout <ms>",
        "on SIGTERM, how long running tool and model calls may take to finish before leases are released (default 10000)",
      )
        .env("TROUPE_DRAIN_TIMEOUT_MS")
        .argParser(positiveInteger),
    );
}
