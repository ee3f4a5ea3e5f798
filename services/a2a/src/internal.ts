/**
 * @troupe/a2a/internal — every module of the package, for the `troupe` command
 * and Troupe's own tests. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./a2a/a2a-agent-card.js";
export * from "./a2a/a2a-message-input.js";
export * from "./a2a/a2a-ready-line.js";
export * from "./a2a/a2a-server.js";
export * from "./a2a/a2a-stream-cursor.js";
export * from "./a2a/a2a-task-stream.js";
export * from "./a2a/a2a-task-view.js";
export * from "./a2a/answer-stream.js";
export * from "./a2a/bearer-auth.js";
export * from "./a2a/settled-input.js";
export * from "./a2a/troupe-a2a-request-handler.js";
