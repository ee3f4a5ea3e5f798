/**
 * Every error code Troupe uses, on the wire and in process.
 *
 * | code | meaning |
 * | --- | --- |
 * | `invalid_address` | an actor kind or id breaks the address rules |
 * | `decode_failed` | bytes did not decode into a valid envelope |
 * | `payload_too_large` | an encoded message is above the payload limit (also: an effect result, outbox item or model answer that would be) |
 * | `lease_lost` | the host no longer holds the shard lease it acted under |
 * | `fenced` | a write carried a fencing token older than the current one |
 * | `shard_count_mismatch` | a host's shard count differs from the deployment's |
 * | `redis_key_layout` | the deployment's Redis keys are in key layout 1 (no hash tags); `troupe migrate redis-keys` moves them (`RedisKeyLayoutError`) |
 * | `unknown_machine_version` | a snapshot was written by a machine version this host cannot read (no `migrate` hook, or it threw): the host refuses the actor, its messages wait in the inbox, nothing is dead-lettered (retryable; `UnknownMachineVersionError`) |
 * | `effect_failed` | an effect (model call, tool, timer) failed after its retries |
 * | `timeout` | an operation did not finish within its deadline |
 * | `model_error` | a model provider call failed (`retryable` says whether a retry may help) |
 * | `model_timeout` | a model call sent nothing for its idle timeout, or did not finish within its call timeout (retryable) |
 * | `model_not_configured` | a model spec is malformed, names an unknown provider, or lacks its API key |
 * | `unknown_agent` | a session named an agent the host does not serve |
 * | `invalid_agent` | an agent definition breaks the rules of `defineAgent` |
 * | `cancelled` | the operation was cancelled on purpose (e.g. `run.cancel`) |
 * | `unavailable` | a server or a deployment resource (NATS, a JetStream stream) cannot be reached or does not exist yet |
 * | `message_rejected` | a session refused a message a client sent (`message.rejected`) |
 * | `unsupported_machine_action` | a hosted machine uses an xstate action or `invoke` the host cannot carry out (child actors, `sendTo`, action implementations with side effects) |
 * | `unroutable_subject` | a publish under `troupe.` matched no route (e.g. `troupe.session.a.b.in`, a session id with a dot); hosts dead-letter it |
 * | `project_exists` | `troupe init` was given a folder that holds files other than an npm project's `package.json`, lock file and `node_modules` |
 * | `invalid_history` | a recorded history file is not one `troupe history export` writes, or comes from a newer format version |
 * | `actor_not_found` | an actor has no stored snapshot (it was never created, or its keys are gone), so there is nothing to read or export |
 * | `history_not_reproducible` | an actor's journal, replayed through the step, does not give its stored snapshot generations (the machine changed, or the journal lost early messages to retention); no history is written |
 * | `invalid_options` | a call was given options it does not accept (e.g. the test kit's `createTestDeployment({ hosts: 0 })`, `clock.advance(-1)`); nothing was started or changed |
 * | `shard_count_changing` | a change of the deployment's shard count is under way (`troupe shards resize`): hosts hold no shard until it ends, a host started meanwhile refuses to start, and a second change is refused (decision 0035) |
 * | `schedule_rejected` | a schedule refused a `schedule.create` or `schedule.cancel` (`schedule.rejected`: bad cron pattern or time zone, no future tick, unknown or settled schedule) |
 * | `budget_exceeded` | a model call's worst case does not fit in one of its spend budgets (run, session tree, agent per day); the run ends with it before the call (`BudgetExceededError`) |
 * | `media_rejected` | an image or file was refused: over the size limit, a media type not allowed, too many per message, or a reference to an object the media store does not hold (`MediaRejectedError`); nothing was published |
 * | `cassette_mismatch` | a model request has no recording in the test kit's model cassette (`CassetteMismatchError`, with a line diff of the prompt) |
 * | `cassette_missing` | a model cassette to replay does not exist (`CassetteMissingError`) |
 * | `definition_unavailable` | a run is pinned to an agent definition this host cannot serve: its record is not in the definition store, or it names a model object this host does not have; the run fails with it (`DefinitionUnavailableError`, docs/decisions/0055) |
 * | `internal` | anything else; a bug or an unexpected exception |
 *
 * Codes are only ever added. A receiver that meets a code it does not know treats
 * it like `internal`.
 */
export const TROUPE_ERROR_CODES = [
  "invalid_address",
  "decode_failed",
  "payload_too_large",
  "lease_lost",
  "fenced",
  "shard_count_mismatch",
  "redis_key_layout",
  "unknown_machine_version",
  "effect_failed",
  "timeout",
  "internal",
  "model_error",
  "model_not_configured",
  "unknown_agent",
  "invalid_agent",
  "cancelled",
  "unavailable",
  "message_rejected",
  "unsupported_machine_action",
  "model_timeout",
  "unroutable_subject",
  "project_exists",
  "invalid_history",
  "actor_not_found",
  "history_not_reproducible",
  "invalid_options",
  "shard_count_changing",
  "schedule_rejected",
  "budget_exceeded",
  "media_rejected",
  "unknown_session",
  "fork_point_out_of_range",
  "fork_too_deep",
  "cassette_mismatch",
  "cassette_missing",
  "definition_unavailable",
] as const;

/** One of {@link TROUPE_ERROR_CODES}. */
export type TroupeErrorCode = (typeof TROUPE_ERROR_CODES)[number];
