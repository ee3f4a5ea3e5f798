import { TroupeError } from "@troupe/protocol";
import { InvalidArgumentError } from "commander";

/** A stdio MCP server entry of `defineAgent({ mcpServers })` (docs/decisions/0024). */
export interface StdioMcpServer {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * MCP server names: `MCP_SERVER_NAME_PATTERN` of `@troupe/agents` (checked
 * again by `defineAgent`), here so that parsing flags does not load the agents.
 */
const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Splits a command line into words as a POSIX shell would for plain words and
 * quotes: whitespace separates words; `'…'` keeps everything literally; `"…"`
 * keeps everything but `\"` and `\\`; a backslash outside quotes escapes the
 * next character. No variables, globs or operators.
 *
 * @param line - e.g. `npx -y @modelcontextprotocol/server-filesystem "/tmp/my notes"`.
 * @returns the words, e.g. `["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp/my notes"]`.
 * @throws TroupeError (code `invalid_options`) for an unterminated quote or a trailing backslash.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && (line[index + 1] === '"' || line[index + 1] === "\\")) {
        word += line[++index]!;
      } else word += char;
      continue;
    }
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    word ??= "";
    if (char === "'" || char === '"') quote = char;
    else if (char === "\\") {
      if (index + 1 >= line.length) {
        throw new TroupeError("invalid_options", `"${line}" ends with a lone backslash`);
      }
      word += line[++index]!;
    } else word += char;
  }
  if (quote !== undefined) {
    throw new TroupeError("invalid_options", `"${line}" has an unterminated ${quote} quote`);
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Commander parser of the repeatable `--mcp <name>=<command line>` of `troupe
 * dev`: one stdio MCP server for the demo agent, its tools named
 * `<name>__<tool>`.
 *
 * @param value - e.g. `fs=npx -y @modelcontextprotocol/server-filesystem /tmp`.
 * @param previous - the servers of the earlier `--mcp` flags.
 * @returns them plus this one, e.g. `{ fs: { command: "npx", args: ["-y", "…", "/tmp"] } }`.
 * @throws InvalidArgumentError (commander prints it with the usage) for a
 *   missing `=`, a bad name (1 to 32 of `A-Z a-z 0-9 _ -`, without `__`), a name given twice,
 *   an empty command or bad quoting.
 */
export function parseMcpFlag(
  value: string,
  previous: Readonly<Record<string, StdioMcpServer>> = {},
): Record<string, StdioMcpServer> {
  const separator = value.indexOf("=");
  if (separator < 0) {
    throw new InvalidArgumentError(
      `expected <name>=<command line>, e.g. "fs=npx -y @modelcontextprotocol/server-filesystem /tmp", got "${value}"`,
    );
  }
  const name = value.slice(0, separator).trim();
  if (!MCP_SERVER_NAME.test(name)) {
    throw new InvalidArgumentError(
      `MCP server name "${name}" must be 1 to 32 characters from A-Z, a-z, 0-9, "_" and "-", without "__"`,
    );
  }
  if (Object.hasOwn(previous, name)) {
    throw new InvalidArgumentError(`MCP server "${name}" is given twice`);
  }
  let words: string[];
  try {
    words = splitCommandLine(value.slice(separator + 1));
  } catch (error) {
    throw new InvalidArgumentError(`MCP server "${name}": ${(error as Error).message}`);
  }
  const [command, ...args] = words;
  if (command === undefined) {
    throw new InvalidArgumentError(`MCP server "${name}" has no command`);
  }
  return { ...previous, [name]: { command, args } };
}
