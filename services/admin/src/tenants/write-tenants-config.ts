import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderTenantsConfig, type TenantsConfigOptions } from "./render-tenants-config.js";

/** Options of {@link writeTenantsConfig}. */
export interface WriteTenantsConfigOptions extends Omit<TenantsConfigOptions, "tenants"> {
  /** Tenant names; each gets fresh random passwords (24 random bytes, base64url). */
  readonly tenants: readonly string[];
  /** Folder to write into (created if missing). */
  readonly outDir: string;
}

/**
 * Writes the files of {@link renderTenantsConfig} with fresh random passwords
 * (docs/decisions/0033): `nats-accounts.conf`, `redis-users.acl` and, per tenant,
 * `<name>-host.yaml` / `<name>-client.yaml` connection files — all mode 0600,
 * since they hold the passwords. Nothing is printed but the file names.
 *
 * @param options - tenants, shard count, URLs, folder.
 * @returns the paths written.
 * @throws TroupeError `invalid_options` for bad tenant names (nothing is written).
 */
export async function writeTenantsConfig(options: WriteTenantsConfigOptions): Promise<string[]> {
  const password = () => randomBytes(24).toString("base64url");
  const config = renderTenantsConfig({
    ...options,
    tenants: options.tenants.map((name) => ({
      name,
      hostPassword: password(),
      clientPassword: password(),
      redisPassword: password(),
    })),
  });
  await mkdir(options.outDir, { recursive: true });
  const files: Record<string, string> = {
    "nats-accounts.conf": config.natsAccounts,
    "redis-users.acl": config.redisAcl,
    ...config.connectionFiles,
  };
  const written: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const path = join(options.outDir, name);
    await writeFile(path, text, { mode: 0o600 });
    written.push(path);
  }
  return written;
}
