import { Agent, request } from "node:http";
import { epochNowMs, type TurnTiming } from "../turns/turn-driver.js";
import { turnObjectName, type RestateTurnKind } from "./turn-object.js";

/**
 * Drives turns of the `turn` virtual object through Restate's HTTP ingress and
 * times them like our `TurnDriver`: a turn is `POST <ingress>/turn/<session
 * id>/<handler>` with the user message as a JSON body, until the response (the
 * handler's answer, sent once the invocation completed) is read to its end.
 * HTTP/1.1 over kept-alive connections (one per turn in flight), no
 * idempotency key.
 */
export class RestateTurnDriver {
  readonly #ingressUrl: URL;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1_024 });
  readonly #turnTimeoutMs: number;

  /**
   * @param ingressUrl - e.g. `http://127.0.0.1:40123`.
   * @param turnTimeoutMs - longest wait for one turn, in ms.
   */
  constructor(ingressUrl: string, turnTimeoutMs: number) {
    this.#ingressUrl = new URL(ingressUrl);
    this.#turnTimeoutMs = turnTimeoutMs;
  }

  /**
   * Runs one turn of `sessionId` and waits for its answer.
   *
   * @param sessionId - the object's key (one turn in flight per key: Restate queues the others).
   * @param kind - `plain` or `oneTool`.
   * @param text - the user message.
   * @returns the timing.
   * @throws Error when the ingress answers other than 200 or the turn exceeds the timeout.
   */
  async turn(sessionId: string, kind: RestateTurnKind, text: string): Promise<TurnTiming> {
    const body = JSON.stringify(text);
    const sentAtMs = epochNowMs();
    await new Promise<void>((resolve, reject) => {
      const outgoing = request(
        {
          host: this.#ingressUrl.hostname,
          port: this.#ingressUrl.port,
          method: "POST",
          path: `/${turnObjectName}/${encodeURIComponent(sessionId)}/${kind}`,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
          agent: this.#agent,
          timeout: this.#turnTimeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () => {
            if (response.statusCode === 200) resolve();
            else
              reject(
                new Error(
                  `Restate ingress answered ${response.statusCode} for ${sessionId}/${kind}: ${Buffer.concat(chunks).toString("utf8").slice(0, 300)}`,
                ),
              );
          });
        },
      );
      outgoing.on("timeout", () =>
        outgoing.destroy(
          new Error(`no answer for ${sessionId}/${kind} within ${this.#turnTimeoutMs} ms`),
        ),
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
    const completedAtMs = epochNowMs();
    return { sessionId, sentAtMs, completedAtMs, durationMs: completedAtMs - sentAtMs };
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#agent.destroy();
  }
}
