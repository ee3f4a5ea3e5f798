import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "@troupe/runtime";
import { canonicalJson } from "@troupe/models/internal";
import {
  agentDefinitionRecordSchema,
  hashOf,
  type AgentDefinitionRecord,
  type HashedDefinitionRecord,
} from "./definition-record.js";

/**
 * Where agent definition records live (docs/decisions/0055), so that any host
 * can continue a run pinned to a definition it does not serve. Records are
 * immutable and keyed by agent name and content hash.
 */
export interface AgentDefinitionStore {
  /** Stores a record unless one is stored under its hash already. @throws when the store is unreachable. */
  save(hashed: HashedDefinitionRecord): Promise<void>;
  /**
   * The record stored under `agent` and `hash`; undefined when none is, or
   * when the stored text is not a record of that hash (never a wrong one).
   *
   * @throws when the store is unreachable.
   */
  load(agent: string, hash: string): Promise<AgentDefinitionRecord | undefined>;
}

/** Records in Redis under `RedisKeys.agentDefinition(agent, hash)`, written with `SET NX`, kept without a TTL. */
export class RedisAgentDefinitionStore implements AgentDefinitionStore {
  /**
   * @param redis - connection.
   * @param keys - the deployment's key layout.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
  ) {}

  async save({ record, hash }: HashedDefinitionRecord): Promise<void> {
    await this.redis.set(this.keys.agentDefinition(record.name, hash), canonicalJson(record), "NX");
  }

  async load(agent: string, hash: string): Promise<AgentDefinitionRecord | undefined> {
    const text = await this.redis.get(this.keys.agentDefinition(agent, hash));
    return text === null ? undefined : checkedRecord(text, agent, hash);
  }
}

/** Records in this process only: for tests and single-process use. */
export class InMemoryAgentDefinitionStore implements AgentDefinitionStore {
  readonly #records = new Map<string, string>();

  save({ record, hash }: HashedDefinitionRecord): Promise<void> {
    const key = `${record.name}:${hash}`;
    if (!this.#records.has(key)) this.#records.set(key, canonicalJson(record));
    return Promise.resolve();
  }

  load(agent: string, hash: string): Promise<AgentDefinitionRecord | undefined> {
    const text = this.#records.get(`${agent}:${hash}`);
    return Promise.resolve(text === undefined ? undefined : checkedRecord(text, agent, hash));
  }
}

/** A stored text as the record of `agent` and `hash`, or undefined when it is not one. */
function checkedRecord(
  text: string,
  agent: string,
  hash: string,
): AgentDefinitionRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = agentDefinitionRecordSchema.safeParse(value);
  if (!parsed.success || parsed.data.name !== agent) return undefined;
  return hashOf(parsed.data) === hash ? parsed.data : undefined;
}
