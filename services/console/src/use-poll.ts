import { useCallback, useEffect, useRef, useState } from "react";

/** What {@link usePoll} gives: the latest value, the latest error, and a refresh. */
export interface Polled<T> {
  readonly data: T | undefined;
  readonly error: Error | undefined;
  readonly refresh: () => void;
}

/**
 * Calls `load` now and every `intervalMs` while the component is shown (and
 * again when `key` changes); keeps the last good value across errors.
 */
export function usePoll<T>(load: () => Promise<T>, intervalMs: number, key = ""): Polled<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        const value = await loadRef.current();
        if (stopped) return;
        setData(value);
        setError(undefined);
      } catch (caught) {
        if (!stopped) setError(caught as Error);
      }
      if (!stopped) timer = setTimeout(() => void run(), intervalMs);
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [intervalMs, key, tick]);
  const refresh = useCallback(() => setTick((value) => value + 1), []);
  return { data, error, refresh };
}
