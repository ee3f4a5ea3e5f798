/**
 * @troupe/cli — the `troupe` command ({@link createProgram}, `bin/troupe.mjs`):
 * a thin layer of commands over the Troupe packages.
 *
 * Until 0.1 this package also exported the dev cluster, the host process, the
 * demo agent and the local servers. Those live in their own packages now and
 * the names below still work, deprecated (each function warns once, with a
 * `DeprecationWarning` of code `troupe-cli-exports-moved`, when first called):
 *
 * | name | import it from |
 * | ---- | -------------- |
 * | `startDevCluster`, `startLocalCluster`, `DevAlreadyRunningError`, `startLocalNatsServer`, `startLocalRedisServer`, `LocalServerStartError`, `ServerBinaryMissingError` | `@troupe/dev` |
 * | `runHost`, `loadAgents`, `AgentModuleError`, `RedisUnreachableError`, `demoAgents`, `demoModel`, `DEMO_AGENT_NAME` | `@troupe/host` |
 *
 * @packageDocumentation
 */
import * as dev from "@troupe/dev";
import * as host from "@troupe/host";
import { troupeHostCommand } from "./cli/troupe-bin-path.js";

export { createProgram } from "./cli/program.js";

const warned = new Set<string>();
/** One DeprecationWarning per name and process. */
function deprecated(name: string, from: string): void {
  if (warned.has(name)) return;
  warned.add(name);
  process.emitWarning(
    `${name} from @troupe/cli is deprecated: import it from ${from}`,
    "DeprecationWarning",
    "troupe-cli-exports-moved",
  );
}

/** `fn` under its old name: the same call, after one {@link deprecated} warning. */
function moved<F extends (...args: never[]) => unknown>(fn: F, name: string, from: string): F {
  return ((...args: Parameters<F>) => {
    deprecated(name, from);
    return fn(...args);
  }) as F;
}

/** Options of {@link startDevCluster}: `hostCommand` defaults to this package's `troupe host`. */
export type DevClusterOptions = Omit<dev.DevClusterOptions, "hostCommand"> &
  Partial<Pick<dev.DevClusterOptions, "hostCommand">>;
/** @deprecated Import from `@troupe/dev`. */
export type DevCluster = dev.DevCluster;
/**
 * @deprecated Import from `@troupe/dev` (where `hostCommand` is required;
 * here it defaults to this package's `troupe host`).
 */
export async function startDevCluster(options: DevClusterOptions): Promise<dev.DevCluster> {
  deprecated("startDevCluster", "@troupe/dev");
  return await dev.startDevCluster({ hostCommand: troupeHostCommand, ...options });
}
/** @deprecated Import from `@troupe/dev`. */
export type LocalClusterOptions = dev.LocalClusterOptions;
/** @deprecated Import from `@troupe/dev`. */
export type LocalCluster = dev.LocalCluster;
/** @deprecated Import from `@troupe/dev` (or use `@troupe/testkit`'s `createTestDeployment`). */
export const startLocalCluster = moved(dev.startLocalCluster, "startLocalCluster", "@troupe/dev");
/** @deprecated Import from `@troupe/dev`. */
export const DevAlreadyRunningError = dev.DevAlreadyRunningError;
/** @deprecated Import from `@troupe/dev`. */
export type DevAlreadyRunningError = dev.DevAlreadyRunningError;
/** @deprecated Import from `@troupe/dev`. */
export const LocalServerStartError = dev.LocalServerStartError;
/** @deprecated Import from `@troupe/dev`. */
export type LocalServerStartError = dev.LocalServerStartError;
/** @deprecated Import from `@troupe/dev`. */
export const ServerBinaryMissingError = dev.ServerBinaryMissingError;
/** @deprecated Import from `@troupe/dev`. */
export type ServerBinaryMissingError = dev.ServerBinaryMissingError;
/** @deprecated Import from `@troupe/dev`. */
export type LocalServer = dev.LocalServer;
/** @deprecated Import from `@troupe/dev`. */
export type LocalServerOptions = dev.LocalServerOptions;
/** @deprecated Import from `@troupe/dev`. */
export type LocalNatsServer = dev.LocalNatsServer;
/** @deprecated Import from `@troupe/dev`. */
export type LocalNatsServerOptions = dev.LocalNatsServerOptions;
/** @deprecated Import from `@troupe/dev`. */
export type LocalRedisServerOptions = dev.LocalRedisServerOptions;
/** @deprecated Import from `@troupe/dev`. */
export const startLocalNatsServer = moved(
  dev.startLocalNatsServer,
  "startLocalNatsServer",
  "@troupe/dev",
);
/** @deprecated Import from `@troupe/dev`. */
export const startLocalRedisServer = moved(
  dev.startLocalRedisServer,
  "startLocalRedisServer",
  "@troupe/dev",
);
/** @deprecated Import from `@troupe/host`. */
export type RunHostOptions = host.RunHostOptions;
/** @deprecated Import from `@troupe/host` (or start a whole host process with its `startHostProcess`). */
export const runHost = moved(host.runHost, "runHost", "@troupe/host");
/** @deprecated Import from `@troupe/host`. */
export type AgentModuleContext = host.AgentModuleContext;
/** @deprecated Import from `@troupe/host`. */
export type AgentModuleExport = host.AgentModuleExport;
/** @deprecated Import from `@troupe/host`. */
export const loadAgents = moved(host.loadAgents, "loadAgents", "@troupe/host");
/** @deprecated Import from `@troupe/host`. */
export const AgentModuleError = host.AgentModuleError;
/** @deprecated Import from `@troupe/host`. */
export type AgentModuleError = host.AgentModuleError;
/** @deprecated Import from `@troupe/host`. */
export const RedisUnreachableError = host.RedisUnreachableError;
/** @deprecated Import from `@troupe/host`. */
export type RedisUnreachableError = host.RedisUnreachableError;
/** @deprecated Import from `@troupe/host`. */
export type DemoAgentsContext = host.DemoAgentsContext;
/** @deprecated Import from `@troupe/host`. */
export const demoAgents = moved(host.demoAgents, "demoAgents", "@troupe/host");
/** @deprecated Import from `@troupe/host`. */
export const demoModel = moved(host.demoModel, "demoModel", "@troupe/host");
/** @deprecated Import from `@troupe/host`. */
export const DEMO_AGENT_NAME = host.DEMO_AGENT_NAME;
