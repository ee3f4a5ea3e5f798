import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * Directories searched after `PATH`: Debian and Ubuntu install `nats-server` and
 * `redis-server` into `/usr/sbin`, which is not on the `PATH` of ordinary users,
 * and Homebrew and manual installs use `/usr/local/bin`.
 */
export const serverSearchDirectories: readonly string[] = [
  "/usr/sbin",
  "/usr/local/sbin",
  "/usr/local/bin",
];

/** Options of {@link findServerBinary}. */
export interface FindServerBinaryOptions {
  /** The `PATH` to search first; defaults to `process.env.PATH`. */
  readonly searchPath?: string | undefined;
}

/**
 * Finds an executable server binary such as `nats-server` or `redis-server`.
 *
 * Searches every directory of `PATH` in order, then {@link serverSearchDirectories}.
 * A candidate counts only if it is a regular file the current user may execute.
 *
 * @param name - The binary's file name, without directory (`"nats-server"`).
 * @param options - See {@link FindServerBinaryOptions}.
 * @returns The absolute path of the first match, or `undefined` when there is none.
 *
 * @example
 * ```ts
 * const natsServer = findServerBinary("nats-server");
 * if (natsServer === undefined) throw new ServerBinaryMissingError("nats-server");
 * ```
 */
export function findServerBinary(
  name: string,
  options: FindServerBinaryOptions = {},
): string | undefined {
  const searchPath = options.searchPath ?? process.env.PATH ?? "";
  const directories = [
    ...searchPath.split(delimiter).filter((directory) => directory !== ""),
    ...serverSearchDirectories,
  ];
  const fileNames = process.platform === "win32" ? [`${name}.exe`, name] : [name];
  for (const directory of directories) {
    for (const fileName of fileNames) {
      const candidate = join(directory, fileName);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
