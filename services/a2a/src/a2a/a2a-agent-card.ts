import type { AgentDefinition } from "@troupe/agents";
import type { AgentCard, AgentSkill } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";

/** Name of the bearer scheme in the card's `securitySchemes` when a token is set. */
export const A2A_BEARER_SCHEME = "bearer";

/** The longest card description taken from an agent's instructions, in characters. */
const DESCRIPTION_LENGTH = 300;

/** What {@link a2aAgentCard} needs. */
export interface A2aAgentCardOptions {
  /** The agent the card describes. */
  readonly agent: AgentDefinition;
  /** Absolute URL of the agent's JSON-RPC endpoint, e.g. `http://127.0.0.1:8080/agents/demo`. */
  readonly url: string;
  /** Whether requests need `Authorization: Bearer <token>` (the card then declares the scheme). */
  readonly bearer: boolean;
}

/**
 * The A2A agent card of one Troupe agent (A2A spec v1.0, "Agent Card",
 * https://a2a-protocol.org/v1.0.0/specification/): its name, a description
 * from the first characters of its instructions, one skill per tool and
 * subagent, streaming on, push notifications off. It lists one JSON-RPC
 * interface at `url` for protocol 1.0 and the same URL for 0.3 (the SDK's
 * compatibility layer, so `message/send` clients work too). With `bearer`, the
 * card declares an HTTP bearer scheme and requires it (docs/decisions/0026).
 *
 * @param options - agent, endpoint URL, whether a token is required.
 * @returns the card, in the SDK's v1.0 shape.
 */
export function a2aAgentCard(options: A2aAgentCardOptions): AgentCard {
  const { agent, url, bearer } = options;
  const instructions = agent.instructions.trim().replace(/\s+/g, " ");
  const description =
    instructions.length > DESCRIPTION_LENGTH
      ? `${instructions.slice(0, DESCRIPTION_LENGTH - 1)}…`
      : instructions || `The Troupe agent ${agent.name}.`;
  return {
    name: agent.name,
    description,
    supportedInterfaces: duplicateInterfacesForLegacy(
      [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
      ["JSONRPC"],
    ),
    provider: undefined,
    version: agent.version ?? "0.0.0",
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: bearer
      ? {
          [A2A_BEARER_SCHEME]: {
            scheme: {
              $case: "httpAuthSecurityScheme",
              value: {
                description: "The token given to `troupe a2a --token` (or TROUPE_A2A_TOKEN).",
                scheme: "Bearer",
                bearerFormat: "",
              },
            },
          },
        }
      : {},
    securityRequirements: bearer ? [{ schemes: { [A2A_BEARER_SCHEME]: { list: [] } } }] : [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: skillsOf(agent),
    signatures: [],
  };
}

/** One skill per tool and per subagent, described as the model reads them. */
function skillsOf(agent: AgentDefinition): AgentSkill[] {
  const skill = (id: string, description: string): AgentSkill => ({
    id,
    name: id,
    description,
    tags: [],
    examples: [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  });
  return [
    ...Object.entries(agent.tools).map(([name, tool]) => skill(name, tool.description)),
    ...Object.entries(agent.subagents).map(([name, subagent]) => skill(name, subagent.description)),
  ];
}
