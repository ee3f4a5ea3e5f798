import { TroupeError } from "@troupe/protocol";

/**
 * The NATS server has the Troupe streams but does not route
 * `troupe.<kind>.<id>.in` into the inbox stream: it lacks the subject mapping
 * of `infra/nats-server.conf` (`troupe.*.*.in` → `_troupe.inbox.<shard>.…`),
 * so JetStream answers "no stream" for the public inbox subject. Not retryable:
 * restart the server with the mapping. Code `unavailable`.
 */
export class InboxMappingMissingError extends TroupeError {
  /**
   * @param subject - the public inbox subject that was published to.
   * @param cause - the publish error from nats.js.
   */
  constructor(
    readonly subject: string,
    cause: unknown,
  ) {
    super(
      "unavailable",
      `NATS took no message on ${subject}: the server lacks Troupe's inbox subject mapping ` +
        "(troupe.*.*.in → _troupe.inbox.<shard>.<kind>.<id>). Start nats-server with " +
        "infra/nats-server.conf (set its shard count to the deployment's), or use `npx troupe dev`.",
      { retryable: false, cause, details: { subject } },
    );
    this.name = "InboxMappingMissingError";
  }
}
