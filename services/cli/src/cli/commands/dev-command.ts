import type { RedisSettings, NatsClientSettings, StreamFlags } from "@troupe/host/internal";
import {
  resolveConnection,
  readDevState,
  troupeHome,
  DEMO_AGENT_MODULE,
  nonNegativeInteger,
  positiveInteger,
  DEMO_MCP_SERVERS_VARIABLE,
  streamEnvironment,
  streamOptions,
} from "@troupe/host/internal";
import { DEFAULT_DEPLOYMENT_PREFIX, DEFAULT_SHARD_COUNT, TroupeError } from "@troupe/protocol";
import { Command, Option } from "commander";
import { join, resolve } from "node:path";
import pc from "picocolors";
import {
  DevAlreadyRunningError,
  formatHostLogLine,
  checkAgentModuleInProcess,
  isPortFree,
} from "@troupe/dev/internal";
import { startDevCluster, type DevCluster } from "@troupe/dev/internal";
import { parseMcpFlag, type StdioMcpServer } from "../parse-mcp-flag.js";
import { troupeHostCommand } from "../troupe-bin-path.js";

interface DevCommandOptions extends StreamFlags {
  readonly hosts: number;
  readonly agent?: string;
  readonly shards: number;
  readonly prefix: string;
  readonly fresh?: boolean;
  readonly natsPort?: number;
  readonly redisPort?: number;
  readonly verbose?: boolean;
  readonly mcp?: Record<string, StdioMcpServer>;
  readonly gateway: boolean;
  readonly gatewayPort?: number;
}

/**
 * `troupe dev`: the main job. Starts local servers (or uses
 * `TROUPE_NATS_URL`/`TROUPE_REDIS_URL`), N hosts serving an agent module (the
 * demo agent by default), prints where everything runs and what to try, and on
 * Ctrl-C stops all of it: hosts first (graceful drain), then the servers.
 */
export function devCommand(): Command {
  return streamOptions(new Command("dev"))
    .description("start a local cluster: nats-server, redis-server and N hosts with an agent")
    .addOption(
      new Option("--hosts <count>", "host processes").default(2).argParser(positiveInteger),
    )
    .option("--agent <module>", "agent module to serve (default: the demo agent)")
    .addOption(
      new Option("--shards <count>", "shards of the deployment")
        .default(DEFAULT_SHARD_COUNT)
        .argParser(positiveInteger),
    )
    .addOption(
      new Option("--prefix <name>", "deployment prefix").default(DEFAULT_DEPLOYMENT_PREFIX),
    )
    .addOption(
      new Option(
        "--nats-port <port>",
        "port of the started nats-server (default 4222 if free; 0: any)",
      ).argParser(nonNegativeInteger),
    )
    .addOption(
      new Option(
        "--redis-port <port>",
        "port of the started redis-server (default 6379 if free; 0: any)",
      ).argParser(nonNegativeInteger),
    )
    .addOption(
      new Option(
        "--mcp <name=command line>",
        'give the demo agent a stdio MCP server, its tools named <name>__<tool> (repeatable), e.g. --mcp "fs=npx -y @modelcontextprotocol/server-filesystem /tmp"',
      ).argParser((value: string, previous: Record<string, StdioMcpServer> | undefined) =>
        parseMcpFlag(value, previous),
      ),
    )
    .addOption(
      new Option(
        "--gateway-port <port>",
        "port of the HTTP gateway and web console (default 7400 if free; 0: any)",
      ).argParser(nonNegativeInteger),
    )
    .option("--no-gateway", "do not start the HTTP gateway and web console")
    .option("--fresh", "delete the data of earlier runs first")
    .option(
      "--verbose",
      "show the hosts' info logs (default: warnings and errors only; TROUPE_LOG_LEVEL=debug adds stack traces)",
    )
    .addHelpText(
      "after",
      "\nData is kept in $TROUPE_HOME/dev (default ~/.troupe/dev) across runs; --fresh starts over.\n" +
        "TROUPE_NATS_URL and TROUPE_REDIS_URL, when set, are used instead of starting servers.\n" +
        "Each agent's model is checked first: a missing provider key (e.g. OPENAI_API_KEY for\n" +
        "TROUPE_MODEL=openai:gpt-4.1-mini) stops it before anything starts; the banner lists agent → model.\n" +
        "Host logs: warnings and errors, one line each; --verbose adds info, TROUPE_LOG_LEVEL=debug\n" +
        "adds stack traces of expected errors. Stop it with Ctrl-C, or `troupe stop` from another terminal.",
    )
    .action(async (options: DevCommandOptions) => {
      const say = (line: string) => process.stdout.write(`${line}\n`);
      const step = (line: string) => say(`${pc.green("✔")} ${line}`);
      const mcpServers = options.mcp ?? {};
      if (
        Object.keys(mcpServers).length > 0 &&
        options.agent !== undefined &&
        options.agent !== DEMO_AGENT_MODULE
      ) {
        throw new TroupeError(
          "invalid_options",
          "--mcp gives the demo agent MCP servers; an agent module lists its own in defineAgent({ mcpServers })",
        );
      }
      const running = await readDevState();
      if (running !== undefined) throw new DevAlreadyRunningError(running.pid, running);
      // Before any server starts: a bad module or a missing provider key is one
      // error and exit code 1.
      await checkAgentModuleInProcess(
        troupeHostCommand,
        options.agent === undefined ? DEMO_AGENT_MODULE : absoluteModule(options.agent),
        process.env,
      );
      say(pc.bold("troupe dev: starting a local cluster"));
      // Signals are handled from the start: Ctrl-C while starting stops what has
      // started once startup returns; SIGHUP (terminal closed) counts as a stop.
      let cluster: DevCluster | undefined = undefined;
      let stopRequested = false;
      let stopped: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (stopped = resolve));
      const stop = () => {
        if (cluster === undefined) return;
        cluster.stop().then(
          () => {
            say(`${pc.green("✔")} stopped`);
            stopped();
          },
          (error: unknown) => {
            say(pc.red(`stop failed: ${String(error)}`));
            process.exitCode = 1;
            stopped();
          },
        );
      };
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopRequested) {
          say(pc.red(`${signal} again: exiting now`));
          process.exit(130);
        }
        stopRequested = true;
        say(`\n${signal}: stopping the hosts (graceful drain), then the servers …`);
        stop();
      };
      for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, onSignal);
      cluster = await startDevCluster({
        hostCommand: troupeHostCommand,
        hosts: options.hosts,
        agentModule: options.agent,
        natsUrl: process.env.TROUPE_NATS_URL,
        redisUrl: process.env.TROUPE_REDIS_URL,
        prefix: options.prefix,
        shardCount: options.shards,
        dataDir: join(troupeHome(), "dev"),
        fresh: options.fresh === true,
        natsPort: options.natsPort,
        redisPort: options.redisPort,
        hostLogLevel: process.env.TROUPE_LOG_LEVEL ?? (options.verbose === true ? "info" : "warn"),
        hostEnv: {
          ...streamEnvironment(options),
          ...(Object.keys(mcpServers).length === 0
            ? {}
            : { [DEMO_MCP_SERVERS_VARIABLE]: JSON.stringify(mcpServers) }),
        },
        onProgress: step,
        // Host logs (pino JSON) as readable lines; a stack only at debug level.
        onHostOutput: (number, line) => {
          for (const readable of formatHostLogLine(line))
            say(pc.dim(`[host ${number}] ${readable}`));
        },
        onHostExit: (number, host, exit) =>
          say(
            pc.yellow(
              `✖ host ${number} (${host.hostId}, pid ${host.pid}) exited: ${exit}. ` +
                (exit === "exit code 0"
                  ? "It drained and released its leases; restarting it."
                  : options.hosts > 1
                    ? "Its shards move to the other hosts once its leases lapse (about 2 s); restarting it."
                    : "Its shards wait for the restarted host (about 2 s, once its leases lapse); restarting it."),
            ),
          ),
        onHostRestart: (number, host) =>
          step(`host ${number} restarted: ${host.hostId}, pid ${host.pid}`),
        ...(options.gateway
          ? {
              // Loaded only here: the HTTP stack is not needed by the other commands.
              startGateway: async (deployment) => {
                const { startGatewayServer } =
                  await import("../../gateway/start-gateway-server.js");
                // Servers given by TROUPE_NATS_URL / TROUPE_REDIS_URL take the credentials and
                // TLS of the environment and TROUPE_CONFIG, as the hosts do.
                const external = await externalServerSettings(deployment);
                return await startGatewayServer({
                  ...deployment,
                  ...external,
                  port: await gatewayPort(options.gatewayPort),
                  log: (line) => say(pc.dim(`[gateway] ${line}`)),
                });
              },
            }
          : {}),
      });
      if (stopRequested) {
        stop();
      } else {
        printBanner(cluster, mcpServers, say);
      }
      await done;
    });
}

function printBanner(
  cluster: DevCluster,
  mcpServers: Readonly<Record<string, StdioMcpServer>>,
  say: (line: string) => void,
): void {
  const { state } = cluster;
  const agentList = state.agents.length === 0 ? "(none reported)" : state.agents.join(", ");
  say("");
  say(
    pc.bold(
      `Troupe is running: ${state.hosts.length} ${state.hosts.length === 1 ? "host" : "hosts"}, ${state.shardCount} shards, agents: ${agentList}`,
    ),
  );
  say(
    `  NATS   ${state.natsUrl}${state.natsMonitorUrl === undefined ? "" : `  (monitor ${state.natsMonitorUrl})`}`,
  );
  say(`  Redis  ${state.redisUrl}`);
  if (state.gatewayUrl !== undefined) {
    say(
      `  web    ${pc.bold(`${state.gatewayUrl}/`)}  (console, useChat at /api/chat, REST at /v1)`,
    );
  }
  for (const agent of state.agents) {
    say(`  agent  ${agent} → model ${state.models?.[agent] ?? "(not reported)"}`);
  }
  for (const [name, server] of Object.entries(mcpServers)) {
    say(`  mcp    ${name}: ${[server.command, ...server.args].join(" ")}  (tools ${name}__*)`);
  }
  state.hosts.forEach((host, index) =>
    say(
      `  host ${index + 1} ${host.hostId}  pid ${host.pid}` +
        (host.metricsUrl === undefined ? "" : `  metrics ${host.metricsUrl}`),
    ),
  );
  if (state.dataDir !== undefined) say(`  data   ${state.dataDir}`);
  say("");
  say(pc.bold("Talk to it (in another terminal, from this folder):"));
  say(`  npx troupe chat demo-1`);
  if (state.agentModule === DEMO_AGENT_MODULE) {
    say(`  npx troupe send demo-1 "what time is it in Tokyo?" --wait`);
  } else {
    say(`  npx troupe send demo-1 "hello" --wait`);
  }
  say(`  npx troupe tail demo-1 --from 1`);
  say(`  npx troupe status`);
  say(`Or publish plain JSON with any NATS client to troupe.session.<sessionId>.in, e.g.`);
  say(
    `  nats --server ${state.natsUrl} pub troupe.session.demo-2.in '{"type":"user.message","text":"hello"}'`,
  );
  say("");
  say(
    pc.dim(
      `Kill a host (kill -9 ${state.hosts[0]?.pid ?? "<pid>"}) and the conversation goes on; it is restarted.`,
    ),
  );
  say(pc.dim("Ctrl-C (or `troupe stop` from another terminal) stops the hosts, then the servers."));
}

/** The gateway's usual port (`DEFAULT_GATEWAY_PORT` of @troupe/gateway, not imported to keep startup light). */
const USUAL_GATEWAY_PORT = 7400;

/** The gateway's port: the one asked for, else 7400 when free, else any free port (0). */
async function gatewayPort(requested: number | undefined): Promise<number> {
  if (requested !== undefined) return requested;
  return (await isPortFree("127.0.0.1", USUAL_GATEWAY_PORT)) ? USUAL_GATEWAY_PORT : 0;
}

/** A relative module path made absolute (as `startDevCluster` gives it to the hosts). */
function absoluteModule(specifier: string): string {
  return specifier.startsWith(".") ? resolve(specifier) : specifier;
}

/** Credentials and TLS for the servers `troupe dev` did not start itself (docs/decisions/0033). */
async function externalServerSettings(deployment: {
  readonly natsUrl: string;
  readonly redisUrl: string;
}): Promise<{ nats?: NatsClientSettings; redis?: RedisSettings }> {
  const settings = await resolveConnection({});
  const { username, password, tls } = settings.redis;
  return {
    ...(deployment.natsUrl === process.env.TROUPE_NATS_URL
      ? { nats: { ...settings.nats, natsUrl: deployment.natsUrl } }
      : {}),
    ...(deployment.redisUrl === process.env.TROUPE_REDIS_URL
      ? {
          redis: {
            mode: "standalone" as const,
            url: deployment.redisUrl,
            ...(username === undefined ? {} : { username }),
            ...(password === undefined ? {} : { password }),
            ...(tls === undefined ? {} : { tls }),
          },
        }
      : {}),
  };
}
