import type { SessionPolicy, ToolPolicy } from "@troupe/protocol";
import type { ModelSpec, BudgetOptions, BudgetSettings } from "@troupe/models";
import type { ContextOptions } from "./context-budget.js";
import type {
  McpServerDefinition,
  McpServerOptions,
  ToolDefinition,
  ToolsOption,
} from "@troupe/tools/internal";

// The shapes of an agent definition. They refer to each other (an agent has
// subagents, a subagent runs an agent), so they live in one file; the
// functions that build them (`defineAgent`, `subagents.ts`) import from here.

/** Agent, tool and subagent names: 1 to 64 characters from `A-Z a-z 0-9 _ -` (safe in subjects and for providers). */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** What `defineAgent` takes; see {@link defineAgent}. */
export interface AgentOptions {
  /** Unique name among the agents of a host; sessions name their agent with it. */
  readonly name: string;
  /** The system instructions of every model call. */
  readonly instructions: string;
  /**
   * Version of this agent's definition (1 to 64 characters, e.g. `"3"` or
   * `"2026-12-01"`; default none). A session records the version of the agent
   * it adopted in its snapshot (through the journaled `agent.resolve` result),
   * and a recorded history names it, so a replay report can say which agent
   * definition produced it (docs/decisions/0020). Change it when the instructions, tools
   * or settings change in a way a reader of old histories should know.
   *
   * A run is pinned to the definition of its first model call — its content
   * hash and this version — and continues under it on every host, even one
   * serving a newer definition, unless that one declares `migrate` from the
   * pinned version (docs/decisions/0055, docs/operating/deploy.md).
   */
  readonly version?: string;
  /**
   * Moves runs pinned to earlier versions of this agent onto this definition at
   * their next model call: `from` lists those versions (1 to 64, not this
   * agent's own `version`, which must be declared). The call's journaled output
   * records the move (`definition.migratedFrom`), so a replay needs no host.
   * Runs pinned to a version `from` does not name keep their pinned definition.
   * Tool calls already made keep the arguments the model wrote: a migration
   * that changes a tool's input schema needs a tool that still accepts them.
   */
  readonly migrate?: { readonly from: readonly string[] };
  /**
   * Model spec string or AI SDK model; default: the session's model, then
   * `TROUPE_MODEL`, then the scripted demo. A list of 1 to 5 is a fallback
   * chain: `[primary, fallback, …]`; when a model call's tries fail
   * with an availability error (HTTP 408, 409, 429, 5xx, 529, a network
   * failure, a model timeout) the run calls the next model (see
   * docs/capabilities/fallback-models.md).
   */
  readonly model?: ModelSpec | readonly ModelSpec[];
  /** Tools made with `defineTool`: a list, or a record keyed by each tool's name. */
  readonly tools?: ToolsOption;
  /**
   * MCP servers whose tools this agent offers the model, by server name (1 to
   * 32 of `A-Z a-z 0-9 _ -`): `{ command, args?, env?, cwd? }` for a
   * server the host starts and supervises over stdio, `{ url, headers?,
   * transport? }` for a Streamable HTTP (or SSE) server. Each tool appears as
   * `<server>__<tool>` (or `toolPrefix` + tool) with the server's JSON Schema;
   * its effect class comes from the tool's annotations, overridable per tool
   * (`tools: { write_file: { effectClass: "non_idempotent_write" } }`).
   * See `src/mcp/README.md`.
   */
  readonly mcpServers?: Readonly<Record<string, McpServerOptions>>;
  /**
   * Agents this agent may delegate to, by name: the model calls each as a tool
   * `{ task }` whose result is the subagent's answer. The subagent runs its
   * `agent` with that agent's tools filtered by `tools` (deny, then allow) and
   * cannot delegate further. A subagent call is policy-checked like a `read`
   * tool (allowed unless `toolPolicy` names it).
   */
  readonly subagents?: Readonly<Record<string, SubagentOptions>>;
  /**
   * Bounds of a run and of each model call:
   * - `maxModelCalls`: model calls per run before a final call without tools (whole, ≥ 1, default 50);
   * - `modelIdleTimeoutMs`: longest wait for the first and for each next piece of model
   *   output — text, reasoning or tool-call arguments; SSE keep-alive comments do not
   *   count (ms, whole, 1 to 2^31 − 1, default 60 000);
   * - `modelCallTimeoutMs`: longest time for one model call, from the request to the
   *   last part (ms, whole, 1 to 2^31 − 1, default 600 000 = 10 min);
   * - `maxConcurrentModelCalls`: most model calls of this agent streaming at once
   *   across every host of the deployment (whole, ≥ 1; absent = no limit). A call
   *   over the limit waits, pending in its run, until a slot frees
   *   (docs/operating/flow-control.md, docs/decisions/0058).
   *
   * A timeout aborts the HTTP request and counts as a retryable error; after the
   * run's tries the run fails with `model_timeout` (docs/decisions/0011).
   */
  readonly limits?: {
    readonly maxModelCalls?: number;
    readonly modelIdleTimeoutMs?: number;
    readonly modelCallTimeoutMs?: number;
    readonly maxConcurrentModelCalls?: number;
    /** Spend limits of the agent's session trees; see `BudgetOptions` and docs/capabilities/spend-limits.md. */
    readonly budget?: BudgetOptions;
  };
  /** `policy` for a message that arrives during a run (default `enqueue`). */
  readonly settings?: { readonly policy?: SessionPolicy };
  /**
   * Which tool calls run, wait for approval or are refused: tool-name patterns
   * (`*` = any characters). `deny` > `ask` > `allow`; a tool no pattern names
   * is allowed when its effect class is `read` or `idempotent_write` and asks
   * otherwise. A session may make it safer (`session.configure`), never looser.
   * The built-in `ask_user` is always allowed.
   */
  readonly toolPolicy?: ToolPolicy;
  /** How long a call that asks waits for `tool.approve` / `tool.deny` before it counts as denied (ms, default 24 h). */
  readonly approvalTimeoutMs?: number;
  /**
   * Media the agent's model reads (docs/capabilities/media.md): `accepts` lists
   * media type patterns (`"image/*"`, `"application/pdf"`); an attachment of
   * another type reaches the model as a text stand-in naming it. Default
   * `["image/*", "application/pdf"]`; `[]` for a text-only model.
   */
  readonly media?: { readonly accepts?: readonly string[] };
  /**
   * The prompt's token budget and how the transcript is compacted to stay in it
   * (docs/capabilities/compaction.md): `maxPromptTokens`, `keepRecentTokens`,
   * `compactionModel`. Default: 75 % of the model's known context window.
   */
  readonly context?: ContextOptions;
}

/** A validated agent, with every default filled in. Frozen. */
export interface AgentDefinition {
  readonly name: string;
  readonly instructions: string;
  /** See `AgentOptions.version`; undefined when not declared. */
  readonly version: string | undefined;
  /** See `AgentOptions.migrate`; absent = runs pinned to another definition keep it. */
  readonly migrate?: { readonly from: readonly string[] } | undefined;
  /** Undefined = the session's model, then `TROUPE_MODEL`, then the scripted demo. The primary of a chain. */
  readonly model: ModelSpec | undefined;
  /** The models after the primary of a fallback chain, in order (docs/decisions/0042); absent or empty = none. */
  readonly fallbackModels?: readonly ModelSpec[];
  /**
   * The agent's tools keyed by name (frozen; empty when none). On a host, the
   * agent registry adds the tools of the agent's MCP servers as they are listed.
   */
  readonly tools: Readonly<Record<string, ToolDefinition>>;
  /** The agent's MCP servers, validated (frozen; empty when none). */
  readonly mcpServers: Readonly<Record<string, McpServerDefinition>>;
  readonly subagents: Readonly<Record<string, SubagentDefinition>>;
  readonly limits: {
    readonly maxModelCalls: number;
    /** ms; see `AgentOptions.limits`. */
    readonly modelIdleTimeoutMs: number;
    /** ms; see `AgentOptions.limits`. */
    readonly modelCallTimeoutMs: number;
    /** See `AgentOptions.limits`; undefined = no limit. */
    readonly maxConcurrentModelCalls?: number | undefined;
    /** See `AgentOptions.limits.budget`; undefined = no spend accounting. */
    readonly budget?: BudgetSettings;
  };
  readonly settings: { readonly policy: SessionPolicy };
  readonly toolPolicy: {
    readonly allow: readonly string[];
    readonly ask: readonly string[];
    readonly deny: readonly string[];
  };
  readonly approvalTimeoutMs: number;
  /** See {@link AgentOptions.media}; absent = the default media types. */
  readonly media?: { readonly accepts: readonly string[] };
  /** See `AgentOptions.context`; undefined = the defaults. */
  readonly context?: ContextOptions | undefined;
}

/** A subagent as `defineAgent` takes it (see `AgentOptions.subagents`). */
export interface SubagentOptions {
  /** What the parent's model reads about the subagent (the description of its tool). */
  readonly description: string;
  /** The subagent's own agent definition (made with `defineAgent`). */
  readonly agent: AgentDefinition;
  /**
   * Filters the agent's tools for the subagent: tool-name patterns (`*` = any
   * characters); a tool `deny` names is removed, then, when `allow` is given,
   * only the tools it names are kept.
   */
  readonly tools?: { readonly deny?: readonly string[]; readonly allow?: readonly string[] };
}

/** A validated subagent of an agent definition. */
export interface SubagentDefinition {
  readonly description: string;
  readonly agent: AgentDefinition;
  readonly tools: {
    readonly deny: readonly string[];
    readonly allow: readonly string[] | undefined;
  };
}
