/**
 * The name that stands for the built-in demo agent where a module is expected
 * (`troupe dev --agent demo`, the default). Its own module, so that commands
 * which only compare names do not load the agents and the AI SDK.
 */
export const DEMO_AGENT_MODULE = "demo";
