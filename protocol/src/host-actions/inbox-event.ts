/**
 * The machine event the host makes from an inbox message: the message payload
 * spread at the top level, plus its `type`, its envelope id (`messageId`) and the
 * time the inbox stream stored it (`timestampMs`, Unix ms) — the machine's only
 * clock. See `@troupe/runtime`'s README, "Using it".
 *
 * @example
 * type Steer = InboxEvent<"run.steer", { text: string; runId?: string }>;
 */
export type InboxEvent<Type extends string, Payload extends object> = Payload & {
  readonly type: Type;
  readonly messageId: string;
  readonly timestampMs: number;
};

/** Input of a hosted machine: the address of the actor it runs for. */
export interface ActorInput {
  readonly address: { readonly kind: string; readonly id: string };
}
