/**
 * @troupe/machines — pure xstate v5 machines and the conventions they use to ask
 * the actor host for IO. Nothing here touches the network, the clock or
 * randomness: time and ids arrive in events, so every machine replays exactly.
 */
export * from "./host-actions/host-actions.js";
