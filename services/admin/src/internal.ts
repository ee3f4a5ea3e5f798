/**
 * @troupe/admin/internal — every module of the package, for the `troupe` command
 * and Troupe's own tests. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./admin/admin-deps.js";
export * from "./admin/assemble-cluster-status.js";
export * from "./admin/cluster-status.js";
export * from "./admin/export-history-command.js";
export * from "./admin/format-actor-inspection.js";
export * from "./admin/history-cassette.js";
export * from "./admin/format-cluster-status.js";
export * from "./admin/format-dead-letters.js";
export * from "./admin/format-duration-ms.js";
export * from "./admin/format-replay-report.js";
export * from "./admin/format-spend-usage.js";
export * from "./admin/history-export-summary.js";
export * from "./admin/inspect-actor.js";
export * from "./admin/list-dead-letters.js";
export * from "./admin/redis-time-ms.js";
export * from "./admin/replay-actor-command.js";
export * from "./admin/snapshot-generation-view.js";
export * from "./admin/text-table.js";
export * from "./admin/to-json-value.js";
export * from "./tenants/render-tenants-config.js";
export * from "./tenants/write-tenants-config.js";
