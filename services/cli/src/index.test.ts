import * as dev from "@troupe/dev";
import * as host from "@troupe/host";
import { describe, expect, it } from "vitest";
import * as cli from "./index.js";

describe("the exports @troupe/cli had before the package split", () => {
  it("are still there: the same classes and constants as in their new packages", () => {
    expect(cli.AgentModuleError).toBe(host.AgentModuleError);
    expect(cli.RedisUnreachableError).toBe(host.RedisUnreachableError);
    expect(cli.DevAlreadyRunningError).toBe(dev.DevAlreadyRunningError);
    expect(cli.LocalServerStartError).toBe(dev.LocalServerStartError);
    expect(cli.ServerBinaryMissingError).toBe(dev.ServerBinaryMissingError);
    expect(cli.DEMO_AGENT_NAME).toBe(host.DEMO_AGENT_NAME);
    expect(Object.keys(cli).sort()).toEqual(
      [
        "AgentModuleError",
        "DEMO_AGENT_NAME",
        "DevAlreadyRunningError",
        "LocalServerStartError",
        "RedisUnreachableError",
        "ServerBinaryMissingError",
        "createProgram",
        "demoAgents",
        "demoModel",
        "loadAgents",
        "runHost",
        "startDevCluster",
        "startLocalCluster",
        "startLocalNatsServer",
        "startLocalRedisServer",
      ].sort(),
    );
  });

  it("a moved function answers as before and warns once that it moved", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const env = { TROUPE_MODEL: "scripted:demo" };
      expect(cli.demoModel(env)).toEqual(host.demoModel(env));
      expect(cli.demoModel(env)).toEqual(host.demoModel(env));
      // process.emitWarning delivers on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => [warning.name, warning.message])).toEqual([
      [
        "DeprecationWarning",
        "demoModel from @troupe/cli is deprecated: import it from @troupe/host",
      ],
    ]);
    expect((warnings[0] as Error & { code?: string }).code).toBe("troupe-cli-exports-moved");
  });
});
