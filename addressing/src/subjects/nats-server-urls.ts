/**
 * The NATS seed URLs in a setting: a comma-separated string
 * (`"nats://n1:4222, nats://n2:4222"`, the form of `--nats` and
 * `TROUPE_NATS_URL`) or a list, each entry trimmed, empty entries dropped, order
 * kept. nats.js takes the result as its `servers` option, connects to one of
 * them and fails over to the others (and to the servers the cluster gossips)
 * when that one is lost; it does not split a comma-separated string itself, so
 * every entry point passes its URLs through this function (docs/decisions/0032).
 *
 * @param given - the setting as given.
 * @returns the URLs; empty when the setting holds none (the caller picks a default or refuses).
 * @example
 * natsServerUrls("nats://a:4222, ,nats://b:4222"); // ["nats://a:4222", "nats://b:4222"]
 */
export function natsServerUrls(given: string | readonly string[]): string[] {
  const list =
    typeof given === "string" ? given.split(",") : given.flatMap((url) => url.split(","));
  return list.map((url) => url.trim()).filter((url) => url !== "");
}
