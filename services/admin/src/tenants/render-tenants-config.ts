import {
  ALERT_SUBJECTS,
  DEAD_LETTER_STREAM_SUBJECTS,
  DELTA_STREAM_SUBJECTS,
  EVENT_STREAM_SUBJECTS,
  inboxSubjectMapping,
  TRANSCRIPT_STREAM_SUBJECTS,
  TroupeError,
} from "@troupe/protocol";

/** One tenant of {@link renderTenantsConfig}: its name and the passwords of its users. */
export interface TenantSpec {
  /** Tenant name: `[a-z0-9][a-z0-9-]{0,31}`; also its deployment prefix and NATS account name. */
  readonly name: string;
  /** Password of the NATS user `<name>-host` (hosts, admin commands). */
  readonly hostPassword: string;
  /** Password of the NATS user `<name>-client` (TroupeClient, gateway, `troupe mcp`). */
  readonly clientPassword: string;
  /** Password of the Redis ACL user `<name>` (hosts, admin commands). */
  readonly redisPassword: string;
}

/** Options of {@link renderTenantsConfig}. */
export interface TenantsConfigOptions {
  readonly tenants: readonly TenantSpec[];
  /** Shard count of every tenant's deployment (the inbox mapping's partition count). */
  readonly shardCount: number;
  /** NATS URL(s) written into the tenants' connection files; default `nats://127.0.0.1:4222`. */
  readonly natsUrl?: string;
  /** Redis URL written into the tenants' connection files (no userinfo); default `redis://127.0.0.1:6379`. */
  readonly redisUrl?: string;
}

/** What {@link renderTenantsConfig} produces: file name → text. */
export interface TenantsConfig {
  /** `accounts { … }` block for nats-server (include it, or paste it, in the server config). */
  readonly natsAccounts: string;
  /** One `user …` line per tenant, for a Redis ACL file (`aclfile`) or `ACL SETUSER`. */
  readonly redisAcl: string;
  /** Troupe connection config files (`--config`), one per tenant and role: `<name>-host.yaml`, `<name>-client.yaml`. */
  readonly connectionFiles: Readonly<Record<string, string>>;
}

/**
 * Subjects a tenant's client user may not publish to (docs/decisions/0033): the
 * JetStream API calls that create, change or delete streams and stored
 * messages, and the subjects only hosts write (session events, deltas, dead
 * letters, transcripts, alerts), so a client cannot forge an event. Clients
 * publish to `troupe.<kind>.<id>.in` and read with consumers. The shard inbox
 * subjects `_troupe.inbox.>` cannot be denied: nats-server checks a publish
 * against the permissions after the account's mapping rewrote
 * `troupe.<kind>.<id>.in` into them (checked on 2.9.10).
 */
export const CLIENT_DENIED_PUBLISH_SUBJECTS: readonly string[] = [
  "$JS.API.STREAM.CREATE.>",
  "$JS.API.STREAM.UPDATE.>",
  "$JS.API.STREAM.DELETE.>",
  "$JS.API.STREAM.PURGE.>",
  "$JS.API.STREAM.MSG.DELETE.>",
  "$JS.API.STREAM.RESTORE.>",
  ...EVENT_STREAM_SUBJECTS,
  ...DELTA_STREAM_SUBJECTS,
  ...DEAD_LETTER_STREAM_SUBJECTS,
  ...TRANSCRIPT_STREAM_SUBJECTS,
  ALERT_SUBJECTS,
];

const TENANT_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * Renders the server-side isolation of several tenants (decision
 * 0033): each tenant gets its own NATS account — its own subject space and
 * JetStream streams, with JetStream enabled and the inbox subject mapping
 * (`troupe.*.*.in` → `_troupe.inbox.<shard>.…`, `shardCount` partitions) — with
 * two users: `<name>-host` (everything inside the account) and `<name>-client`
 * (everything but {@link CLIENT_DENIED_PUBLISH_SUBJECTS}); and a Redis ACL
 * user `<name>` limited to the keys of its deployment prefix (`~<name>:*`, and
 * `~{<name>:*` for hash-tagged keys), without dangerous commands. Accounts are
 * the isolation boundary: Troupe's stream subjects (`_troupe.inbox.>`, …) are
 * the same in every deployment, so two tenants could not share one account.
 * Pure.
 *
 * @param options - tenants, shard count, URLs for the connection files.
 * @returns the nats-server accounts block, Redis ACL lines and per-tenant connection files.
 * @throws TroupeError `invalid_options` for a bad or repeated tenant name, an
 *   empty password, or a password with a character the files cannot hold (`"`, `\`, space, newline).
 * @example
 * const { natsAccounts, redisAcl } = renderTenantsConfig({
 *   tenants: [{ name: "acme", hostPassword: "…", clientPassword: "…", redisPassword: "…" }],
 *   shardCount: 64,
 * });
 */
export function renderTenantsConfig(options: TenantsConfigOptions): TenantsConfig {
  assertTenants(options.tenants);
  const mapping = inboxSubjectMapping(options.shardCount);
  const quote = (text: string) => JSON.stringify(text);
  const accounts = options.tenants.flatMap((tenant) => [
    `  ${quote(tenant.name)}: {`,
    "    jetstream: enabled",
    "    mappings: {",
    `      ${quote(mapping.source)}: ${quote(mapping.destination)}`,
    "    }",
    "    users: [",
    `      { user: ${quote(`${tenant.name}-host`)}, password: ${quote(tenant.hostPassword)} }`,
    `      { user: ${quote(`${tenant.name}-client`)}, password: ${quote(tenant.clientPassword)},`,
    '        permissions: { publish: { allow: [">"], deny: [',
    ...CLIENT_DENIED_PUBLISH_SUBJECTS.map((subject) => `          ${quote(subject)},`),
    "        ] } } }",
    "    ]",
    "  }",
  ]);
  const natsAccounts = [
    "# Generated by `troupe tenants config`: one NATS account per tenant.",
    "# The server needs JetStream on (a top-level `jetstream {}` block). Keep this file private.",
    "accounts {",
    ...accounts,
    "}",
    "",
  ].join("\n");
  const redisAcl = [
    ...options.tenants.map(
      (tenant) =>
        `user ${tenant.name} on >${tenant.redisPassword} resetchannels ~${tenant.name}:* ~{${tenant.name}:* ` +
        "+@all -@dangerous +info +cluster|slots +cluster|shards +cluster|info",
    ),
    "",
  ].join("\n");
  const natsUrl = options.natsUrl ?? "nats://127.0.0.1:4222";
  const redisUrl = options.redisUrl ?? "redis://127.0.0.1:6379";
  const connectionFiles: Record<string, string> = {};
  for (const tenant of options.tenants) {
    for (const [role, password] of [
      ["host", tenant.hostPassword],
      ["client", tenant.clientPassword],
    ] as const) {
      connectionFiles[`${tenant.name}-${role}.yaml`] = [
        `# Troupe connection settings of tenant ${tenant.name}, role ${role} (troupe --config <file>).`,
        `prefix: ${tenant.name}`,
        "nats:",
        `  urls: ${quote(natsUrl)}`,
        `  user: ${quote(`${tenant.name}-${role}`)}`,
        `  password: ${quote(password)}`,
        ...(role === "host"
          ? [
              "redis:",
              `  url: ${quote(redisUrl)}`,
              `  username: ${quote(tenant.name)}`,
              `  password: ${quote(tenant.redisPassword)}`,
            ]
          : []),
        "",
      ].join("\n");
    }
  }
  return { natsAccounts, redisAcl, connectionFiles };
}

function assertTenants(tenants: readonly TenantSpec[]): void {
  if (tenants.length === 0) throw new TroupeError("invalid_options", "Give at least one tenant.");
  const seen = new Set<string>();
  for (const tenant of tenants) {
    if (!TENANT_NAME.test(tenant.name)) {
      throw new TroupeError(
        "invalid_options",
        `Tenant name "${tenant.name}" must be 1 to 32 lowercase letters, digits or "-", starting with a letter or digit.`,
      );
    }
    if (seen.has(tenant.name)) {
      throw new TroupeError("invalid_options", `Tenant "${tenant.name}" is given twice.`);
    }
    seen.add(tenant.name);
    for (const [what, password] of [
      ["host", tenant.hostPassword],
      ["client", tenant.clientPassword],
      ["Redis", tenant.redisPassword],
    ] as const) {
      if (password.length === 0 || /["\\\s]/.test(password)) {
        throw new TroupeError(
          "invalid_options",
          `The ${what} password of tenant "${tenant.name}" is empty or holds a quote, backslash or space.`,
        );
      }
    }
  }
}
