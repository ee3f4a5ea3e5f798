import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { demoMcpServers, DEMO_MCP_SERVERS_VARIABLE } from "@troupe/host/internal";
import { parseMcpFlag, splitCommandLine } from "./parse-mcp-flag.js";

describe("splitCommandLine", () => {
  it("splits on whitespace and keeps quoted words whole", () => {
    expect(splitCommandLine("npx -y @modelcontextprotocol/server-filesystem /tmp")).toEqual([
      "npx",
      "-y",
      "@modelcontextprotocol/server-filesystem",
      "/tmp",
    ]);
    expect(splitCommandLine(`  node  "/my dir/a.js"   'it''s' x\\ y "a\\"b" ''  `)).toEqual([
      "node",
      "/my dir/a.js",
      "its",
      "x y",
      'a"b',
      "",
    ]);
    expect(splitCommandLine(`'\\n' "\\n"`)).toEqual(["\\n", "\\n"]);
  });

  it("refuses an unterminated quote or a trailing backslash", () => {
    expect(() => splitCommandLine(`node "a.js`)).toThrow(/unterminated " quote/);
    expect(() => splitCommandLine(`node 'a.js`)).toThrow(/unterminated ' quote/);
    expect(() => splitCommandLine("node a\\")).toThrow(/lone backslash/);
  });
});

describe("parseMcpFlag (troupe dev --mcp)", () => {
  it("makes a stdio server entry per flag, keeping the earlier ones", () => {
    const first = parseMcpFlag("fs=npx -y @modelcontextprotocol/server-filesystem /tmp");
    expect(first).toEqual({
      fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
    });
    expect(parseMcpFlag("every_thing=node 'x y.js' stdio", first)).toEqual({
      ...first,
      every_thing: { command: "node", args: ["x y.js", "stdio"] },
    });
  });

  it.each([
    ["fs", /expected <name>=<command line>/],
    ["=npx server", /MCP server name "" must be/],
    ["my.fs=npx server", /MCP server name "my.fs" must be/],
    ["fs=   ", /MCP server "fs" has no command/],
    ["fs=node 'a.js", /MCP server "fs": .*unterminated ' quote/],
  ])("refuses %j", (value, message) => {
    expect(() => parseMcpFlag(value)).toThrow(InvalidArgumentError);
    expect(() => parseMcpFlag(value)).toThrow(message);
  });

  it("refuses a name given twice", () => {
    expect(() => parseMcpFlag("fs=b", parseMcpFlag("fs=a"))).toThrow(
      'MCP server "fs" is given twice',
    );
  });
});

describe("demoMcpServers", () => {
  it("reads the servers --mcp passes to the hosts", () => {
    const servers = { fs: { command: "npx", args: ["-y", "server", "/tmp"] } };
    expect(demoMcpServers({ [DEMO_MCP_SERVERS_VARIABLE]: JSON.stringify(servers) })).toEqual(
      servers,
    );
    expect(demoMcpServers({})).toEqual({});
    expect(demoMcpServers({ [DEMO_MCP_SERVERS_VARIABLE]: " " })).toEqual({});
  });

  it("refuses a value that is not a JSON object, with code invalid_options", () => {
    expect(() => demoMcpServers({ [DEMO_MCP_SERVERS_VARIABLE]: "{fs" })).toThrow(
      expect.objectContaining({ code: "invalid_options" }),
    );
    expect(() => demoMcpServers({ [DEMO_MCP_SERVERS_VARIABLE]: "[1]" })).toThrow(
      "TROUPE_DEMO_MCP_SERVERS must be a JSON object of MCP servers by name",
    );
  });
});
