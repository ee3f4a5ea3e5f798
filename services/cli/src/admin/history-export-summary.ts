import { subagentAgentName, type AgentDefinition } from "@troupe/agents";
import type { HistoryAgent, TroupeHistory } from "@troupe/protocol";

/**
 * The agents a history names as its producer (`producer.agents`, issue #14):
 * each agent, then each of its subagents' agents under the name a host
 * registers it (`<parent>--<subagent>`), with the declared version when there
 * is one.
 *
 * @param agents - the agents the hosts serve.
 * @returns `[{ name, version? }]`, in that order.
 */
export function agentsOfHistory(agents: readonly AgentDefinition[]): HistoryAgent[] {
  const named = (name: string, version: string | undefined): HistoryAgent =>
    version === undefined ? { name } : { name, version };
  return agents.flatMap((agent) => [
    named(agent.name, agent.version),
    ...Object.entries(agent.subagents).map(([name, subagent]) =>
      named(subagentAgentName(agent.name, name), subagent.agent.version),
    ),
  ]);
}

/**
 * One line about a written history, for stderr:
 * `wrote 2 actors (session/s1: 9 messages, 8 generations; run/s1: …) to file (12345 bytes)`.
 *
 * @param history - the history written.
 * @param file - where.
 * @param bytes - its size in bytes.
 */
export function describeExport(history: TroupeHistory, file: string, bytes: number): string {
  const actors = history.actors
    .map(
      (actor) =>
        `${actor.address}: ${plural(actor.journal.length, "message")}, ${plural(actor.generations.length, "generation")}`,
    )
    .join("; ");
  return `wrote ${plural(history.actors.length, "actor")} (${actors}) to ${file} (${bytes} bytes)`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
