import { DEFAULT_GATEWAY_PORT, type GatewayAuth, type TokenGrant } from "@troupe/gateway";
import { TroupeError } from "@troupe/protocol";
import { MIN_TOKEN_LENGTH, readGatewayTokensFile } from "../../gateway/gateway-tokens-file.js";
import { startGatewayServer } from "../../gateway/start-gateway-server.js";
import { assertListenAllowed } from "@troupe/gateway";
import { resolveConnection, type ConnectionFlags } from "@troupe/host/internal";

/** Flags of `troupe gateway`. */
export interface GatewayCommandOptions extends ConnectionFlags {
  readonly port?: number;
  readonly host?: string;
  readonly token?: string;
  readonly tokensFile?: string;
  readonly corsOrigin?: string[];
  readonly maxBodyBytes?: number;
  readonly console: boolean;
}

/**
 * Runs `troupe gateway` until SIGINT/SIGTERM: finds the deployment as every
 * client command does and serves it over HTTP. Prints one line
 * on stdout once listening: its URL and how requests are authenticated.
 *
 * @throws TroupeError `invalid_options` for a bad tokens file or an empty
 *   token; `GatewayOptionsError` for a non-loopback `--host` without tokens;
 *   `NatsUnreachableError`.
 */
export async function runGatewayCommand(options: GatewayCommandOptions): Promise<void> {
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const auth = await authOf(options);
  assertListenAllowed({
    host: options.host ?? "127.0.0.1",
    token: auth === undefined ? undefined : "configured",
    command: "troupe gateway",
    tokenEnv: "TROUPE_GATEWAY_TOKEN",
  });
  const connection = await resolveConnection(options);
  if (connection.note !== undefined) log(`note: ${connection.note}`);
  const origins = options.corsOrigin;
  const gateway = await startGatewayServer({
    natsUrl: connection.natsUrl,
    redisUrl: connection.redisUrl,
    nats: connection.nats,
    redis: connection.redis,
    prefix: connection.prefix,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(auth === undefined ? {} : { auth }),
    ...(origins === undefined || origins.length === 0
      ? {}
      : { corsOrigins: origins.includes("*") ? "*" : origins }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    console: options.console,
    log,
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new TroupeError(
        "invalid_options",
        `Port ${options.port ?? DEFAULT_GATEWAY_PORT} is in use` +
          (options.port === undefined
            ? " (troupe dev runs its gateway there when it is free)"
            : "") +
          ": give --port <port>, or --port 0 for any free port.",
      );
    }
    throw error;
  });
  const access =
    auth === undefined
      ? "no token: loopback only"
      : `bearer tokens required (${auth.tokens?.length ?? 0} configured)`;
  process.stdout.write(`troupe gateway: serving ${gateway.url} (${access})\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  log(`troupe gateway: ${signal}, stopping`);
  await gateway.close();
}

/** The tokens of `--token` and `--tokens-file`; `undefined` when neither is given. */
async function authOf(options: GatewayCommandOptions): Promise<GatewayAuth | undefined> {
  const tokens: TokenGrant[] = [];
  if (options.token !== undefined) {
    if (options.token.trim().length < MIN_TOKEN_LENGTH) {
      throw new TroupeError(
        "invalid_options",
        `The gateway token has fewer than ${MIN_TOKEN_LENGTH} characters (as in a tokens file): give a longer one, or none.`,
      );
    }
    tokens.push({ token: options.token, name: "--token" });
  }
  if (options.tokensFile !== undefined)
    tokens.push(...(await readGatewayTokensFile(options.tokensFile)));
  return tokens.length === 0 ? undefined : { tokens };
}
