import { TroupeError } from "@troupe/protocol";

/**
 * `troupe init` was given a folder that already holds files other than an npm
 * project's `package.json`, lock file and `node_modules`. Nothing
 * was written. Not retryable: choose another folder or move the files.
 */
export class ProjectExistsError extends TroupeError {
  /**
   * @param dir - the folder, absolute.
   * @param entries - what it holds that init does not expect, sorted.
   */
  constructor(
    readonly dir: string,
    readonly entries: readonly string[],
  ) {
    const shown = entries.slice(0, 5).join(", ") + (entries.length > 5 ? ", …" : "");
    super(
      "project_exists",
      `${dir} is not empty (${shown}). troupe init creates a project in an empty folder, ` +
        "or in one that only has package.json, package-lock.json, node_modules or .git: " +
        "give it a new folder (troupe init my-agents).",
      { retryable: false, details: { dir, entries: [...entries] } },
    );
    this.name = "ProjectExistsError";
  }
}
