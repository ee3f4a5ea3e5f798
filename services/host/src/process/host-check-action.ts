import { checkAgentModule } from "../host/check-agent-module.js";
import { DEMO_AGENT_MODULE } from "../host/demo-agent-module.js";
import type { HostCommandOptions } from "./host-action.js";

/**
 * `troupe host --check`: {@link checkAgentModule} of `--agent` (default: the
 * demo agent), without servers; prints `agent → model` lines, or with `--json`
 * `{"ok":true,"models":{…}}` (`models` null when the module exports a factory,
 * which only a host calls). Exits at once: the module may have started timers.
 * Its own module, so that it does not load the host runtime.
 *
 * @throws AgentModuleError / ModelNotConfiguredError as {@link checkAgentModule}.
 */
export async function checkHostCommand(options: HostCommandOptions): Promise<void> {
  const models = await checkAgentModule(options.agent ?? DEMO_AGENT_MODULE, process.env);
  process.stdout.write(
    options.json === true
      ? `${JSON.stringify({
          ok: true,
          models:
            models === undefined
              ? null
              : Object.fromEntries(models.map(({ agent, model }) => [agent, model])),
        })}\n`
      : models === undefined
        ? "the module exports a factory: its agents and models are checked when a host starts\n"
        : models.map(({ agent, model }) => `${agent} → ${model}\n`).join(""),
  );
  process.exit(0);
}
