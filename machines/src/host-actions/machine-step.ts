import { enqueueActions, type EventObject, type MachineContext } from "xstate";
import type {
  appendEntry,
  cancelEffect,
  emitEvent,
  requestEffect,
  sendMessage,
} from "@troupe/protocol";

/** Any action object made by this folder's creators (`troupe.*`). */
export type HostAction =
  | ReturnType<typeof requestEffect>
  | ReturnType<typeof sendMessage>
  | ReturnType<typeof emitEvent>
  | ReturnType<typeof appendEntry>
  | ReturnType<typeof cancelEffect>;

/**
 * What one step of a machine decides, as plain data: a context patch, the host
 * actions to request, in order, and events the machine takes next. Steps are
 * pure functions of context and event, so they are easy to read and to test on
 * their own.
 */
export interface MachineStep<TContext, TEvent extends EventObject = never> {
  /** Fields of the context to replace (applied before the next named action runs). */
  readonly context?: Partial<TContext>;
  /** Host actions to request, in order. */
  readonly actions?: readonly HostAction[];
  /**
   * Events the machine takes next, in order, before the host sees the next
   * message (xstate's immediate `raise`: taken within the same pure
   * transition, after the current one, in the state it leads to).
   */
  readonly raise?: readonly TEvent[];
}

/**
 * Turns a step function into an xstate action: the patch becomes an `assign`, the
 * host actions are enqueued in order, then the events to raise.
 *
 * @param decide - pure function of the current context and event.
 * @returns an action implementation for `setup({ actions })`.
 *
 * @example
 * setup({ actions: { greet: stepAction((context) => ({ actions: [emitEvent(…)] })) } });
 */
export function stepAction<TContext extends MachineContext, TEvent extends EventObject>(
  decide: (context: TContext, event: TEvent) => MachineStep<TContext, TEvent>,
) {
  return enqueueActions<TContext, TEvent, undefined, TEvent, never, HostAction, never, never>(
    ({ context, event, enqueue }) => {
      const step = decide(context, event);
      if (step.context !== undefined) enqueue.assign(step.context);
      for (const action of step.actions ?? []) enqueue(action);
      for (const next of step.raise ?? []) enqueue.raise(next);
    },
  );
}
