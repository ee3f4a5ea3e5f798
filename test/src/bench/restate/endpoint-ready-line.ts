const readyLinePattern = /^restate turn endpoint listening on 127\.0\.0\.1:(\d{1,5})$/;

/**
 * The line `restate-turn-endpoint.ts` prints once it listens.
 *
 * @param port - the TCP port it listens on, on 127.0.0.1.
 * @returns e.g. `restate turn endpoint listening on 127.0.0.1:40123`.
 */
export function formatEndpointReadyLine(port: number): string {
  return `restate turn endpoint listening on 127.0.0.1:${port}`;
}

/**
 * The port of a ready line (see {@link formatEndpointReadyLine}).
 *
 * @param line - one line of the endpoint's stdout, without its newline.
 * @returns the port (1–65535), or undefined when the line is not the ready line.
 */
export function parseEndpointReadyLine(line: string): number | undefined {
  const match = readyLinePattern.exec(line.trim());
  const port = Number(match?.[1]);
  return Number.isInteger(port) && port >= 1 && port <= 65_535 ? port : undefined;
}
