/**
 * @troupe/cli/internal — the command layer's own parts, for Troupe's own
 * tests: event rendering of `troupe tail` / `troupe chat`, `troupe init`'s
 * project template, the path of the `troupe` executable. Not covered by
 * semantic versioning. The parts of the other packages are in their own
 * `internal` entries (`@troupe/host/internal`, `@troupe/dev/internal`,
 * `@troupe/admin/internal`, `@troupe/mcp/internal`, `@troupe/a2a/internal`).
 *
 * @packageDocumentation
 */
export { troupeBinPath, troupeHostCommand } from "./cli/troupe-bin-path.js";
export { EventRenderer, type EventRendererOptions } from "./cli/render/event-renderer.js";
export type { RenderableEvent } from "./cli/render/renderable-event.js";
export { DeltaTracker, type DeltaDecision } from "./cli/render/delta-tracker.js";
export { eventLines, type EventLinesContext } from "./cli/render/event-lines.js";
export { knownEvent, type KnownEvent } from "./cli/render/known-event.js";
export { DEFAULT_VALUE_MAX_CHARS, formatValue } from "./cli/render/format-value.js";
export { renderColors, type RenderColors } from "./cli/render/render-colors.js";
export {
  initProject,
  packageName,
  ALLOWED_EXISTING,
  type InitProjectOptions,
  type InitProjectResult,
} from "./cli/init/init-project.js";
export {
  PROJECT_TEMPLATE_DIR,
  TEMPLATE_FILES,
  projectDependencies,
  type ProjectDependencies,
} from "./cli/init/project-template.js";
export { ProjectExistsError } from "./cli/init/project-exists-error.js";
