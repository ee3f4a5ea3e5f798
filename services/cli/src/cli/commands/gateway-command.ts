import { Command, Option } from "commander";
import { connectionOptions, nonNegativeInteger, positiveInteger } from "@troupe/host/internal";
import type { GatewayCommandOptions } from "./gateway-action.js";

/**
 * `troupe gateway [--port N] [--host <addr>] [--token <secret>] [--tokens-file <path>]
 * [--cors-origin <origin>]… [--max-body-bytes N] [--no-console]`: serves the
 * deployment over HTTP: the AI SDK UI message stream for
 * `useChat`, REST + SSE under `/v1`, and the web console at `/`. See
 * `services/gateway/README.md`.
 */
export function gatewayCommand(): Command {
  return connectionOptions(new Command("gateway"))
    .description("serve the deployment over HTTP: useChat stream, REST + SSE, web console")
    .addOption(
      new Option("--port <port>", "HTTP port (default 7400; 0: any free port)")
        .env("TROUPE_GATEWAY_PORT")
        .argParser(nonNegativeInteger),
    )
    .addOption(
      new Option("--host <address>", "address to listen on (default 127.0.0.1)").env(
        "TROUPE_GATEWAY_HOST",
      ),
    )
    .addOption(
      new Option(
        "--token <secret>",
        "bearer token with access to every session (without any token: loopback only)",
      ).env("TROUPE_GATEWAY_TOKEN"),
    )
    .addOption(
      new Option(
        "--tokens-file <path>",
        'JSON list of tokens, each scoped to a session-id prefix: [{"token":"…","sessionPrefix":"acme-"}]',
      ).env("TROUPE_GATEWAY_TOKENS_FILE"),
    )
    .addOption(
      new Option(
        "--cors-origin <origin>",
        "browser origin allowed to call the API (repeatable; * for any; default: same origin only)",
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(
      new Option("--max-body-bytes <bytes>", "largest request body (default 1048576)").argParser(
        positiveInteger,
      ),
    )
    .option("--no-console", "do not serve the web console at /")
    .action(async (options: GatewayCommandOptions) => {
      const { runGatewayCommand } = await import("./gateway-action.js");
      await runGatewayCommand(options);
    });
}
