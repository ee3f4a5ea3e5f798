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
export async function startLocalCluster(
  options: dev.LocalClusterOptions,
): Promise<dev.LocalCluster> {
  deprecated("startLocalCluster", "@troupe/dev");
  return await dev.startLocalCluster(options);
}
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
export async function startLocalNatsServer(
  options?: dev.LocalNatsServerOptions,
): Promise<dev.LocalNatsServer> {
  deprecated("startLocalNatsServer", "@troupe/dev");
  return await dev.startLocalNatsServer(options);
}
/** @deprecated Import from `@troupe/dev`. */
export async function startLocalRedisServer(
  options?: dev.LocalRedisServerOptions,
): Promise<dev.LocalServer> {
  deprecated("startLocalRedisServer", "@troupe/dev");
  return await dev.startLocalRedisServer(options);
}
/** @deprecated Import from `@troupe/host`. */
export type RunHostOptions = host.RunHostOptions;
/** @deprecated Import from `@troupe/host` (or start a whole host process with its `startHostProcess`). */
export async function runHost(
  options: host.RunHostOptions,
): Promise<Awaited<ReturnType<typeof host.runHost>>> {
  deprecated("runHost", "@troupe/host");
  return await host.runHost(options);
}
/** @deprecated Import from `@troupe/host`. */
export type AgentModuleContext = host.AgentModuleContext;
/** @deprecated Import from `@troupe/host`. */
export type AgentModuleExport = host.AgentModuleExport;
/** @deprecated Import from `@troupe/host`. */
export async function loadAgents(
  ...args: Parameters<typeof host.loadAgents>
): ReturnType<typeof host.loadAgents> {
  deprecated("loadAgents", "@troupe/host");
  return await host.loadAgents(...args);
}
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
export function demoAgents(
  ...args: Parameters<typeof host.demoAgents>
): ReturnType<typeof host.demoAgents> {
  deprecated("demoAgents", "@troupe/host");
  return host.demoAgents(...args);
}
/** @deprecated Import from `@troupe/host`. */
export function demoModel(
  ...args: Parameters<typeof host.demoModel>
): ReturnType<typeof host.demoModel> {
  deprecated("demoModel", "@troupe/host");
  return host.demoModel(...args);
}
/** @deprecated Import from `@troupe/host`. */
export const DEMO_AGENT_NAME = host.DEMO_AGENT_NAME;
