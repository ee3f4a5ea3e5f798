import { readFileSync } from "node:fs";

/** Where to read about installing the servers when no package manager command applies. */
export const serverInstallLinks: readonly string[] = [
  "https://docs.nats.io/running-a-nats-service/introduction/installation",
  "https://redis.io/docs/latest/operate/oss_and_stack/install/",
];

/** Describes the machine for {@link serverInstallHint}; defaults to the current one. */
export interface ServerInstallHintOptions {
  /** `process.platform` value; defaults to the current platform. */
  readonly platform?: NodeJS.Platform | undefined;
  /** Text of `/etc/os-release`; read from disk on Linux when omitted. */
  readonly osRelease?: string | undefined;
}

/**
 * Tells a person how to install `nats-server` and `redis-server` on this machine.
 *
 * - Debian, Ubuntu and derivatives: `apt-get install -y nats-server redis-server` (as root).
 * - macOS: `brew install nats-server redis`.
 * - anything else: links to both projects' install pages.
 *
 * @param options - See {@link ServerInstallHintOptions}.
 * @returns One human-readable sentence, ready to append to an error message.
 *
 * @example
 * ```ts
 * serverInstallHint({ platform: "darwin" });
 * // "Install them with: brew install nats-server redis"
 * ```
 */
export function serverInstallHint(options: ServerInstallHintOptions = {}): string {
  const platform = options.platform ?? process.platform;
  if (platform === "darwin") return "Install them with: brew install nats-server redis";
  if (platform === "linux" && isDebianLike(options.osRelease ?? readOsRelease())) {
    return "Install them with: apt-get install -y nats-server redis-server (as root)";
  }
  return `Install them as described at ${serverInstallLinks.join(" and ")}`;
}

function isDebianLike(osRelease: string): boolean {
  const identifiers = osRelease
    .split("\n")
    .filter((line) => line.startsWith("ID=") || line.startsWith("ID_LIKE="))
    .flatMap((line) =>
      line
        .slice(line.indexOf("=") + 1)
        .replaceAll('"', "")
        .split(" "),
    );
  return identifiers.some((identifier) => identifier === "debian" || identifier === "ubuntu");
}

function readOsRelease(): string {
  try {
    return readFileSync("/etc/os-release", "utf8");
  } catch {
    return "";
  }
}
