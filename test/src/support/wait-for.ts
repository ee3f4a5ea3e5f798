import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls `condition` until it returns true.
 *
 * @param condition - checked every `intervalMs` (default 50 ms).
 * @param options - `timeoutMs` (required) and a description for the error.
 * @throws Error naming the description when `timeoutMs` passes first.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; intervalMs?: number; description: string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await condition()) return;
    } catch (error) {
      lastError = error;
    }
    await sleep(options.intervalMs ?? 50);
  }
  throw new Error(
    `timed out after ${options.timeoutMs} ms waiting for: ${options.description}${lastError instanceof Error ? ` (last error: ${lastError.message})` : ""}`,
  );
}
