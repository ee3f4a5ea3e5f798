import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { findServerBinary } from "../local-servers/find-server-binary.js";
import { ServerBinaryMissingError } from "../local-servers/server-binary-missing-error.js";

/** The repository's server setup script, when `troupe` runs from a clone. */
const ensureScript = fileURLToPath(
  new URL("../../../../infra/ensure-servers.mjs", import.meta.url),
);

/**
 * Makes sure `nats-server` and `redis-server` are installed: when one is
 * missing, runs the repository's `infra/ensure-servers.mjs` in local mode (on
 * Debian/Ubuntu as root it installs them with apt-get; elsewhere it prints how
 * to install them).
 *
 * @param onProgress - receives one line per step.
 * @throws ServerBinaryMissingError when a binary is still missing afterwards.
 */
export async function ensureServerBinaries(onProgress: (line: string) => void): Promise<void> {
  const missing = (["nats-server", "redis-server"] as const).filter(
    (name) => findServerBinary(name) === undefined,
  );
  if (missing.length === 0) return;
  if (existsSync(ensureScript)) {
    onProgress(`${missing.join(" and ")} not found; running infra/ensure-servers.mjs`);
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [ensureScript], {
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, TROUPE_TEST_SERVERS: "local" },
      });
      child.once("exit", () => resolve());
      child.once("error", () => resolve());
    });
  }
  const stillMissing = missing.find((name) => findServerBinary(name) === undefined);
  if (stillMissing !== undefined) throw new ServerBinaryMissingError(stillMissing);
}
