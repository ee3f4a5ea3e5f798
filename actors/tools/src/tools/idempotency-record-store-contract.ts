import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { ToolEffectClass } from "./define-tool.js";
import type { IdempotencyRecordStore } from "./idempotency-record-store.js";

/** One case of the {@link IdempotencyRecordStore} contract: a name saying what it proves and the check. */
export interface IdempotencyRecordStoreContractCase {
  readonly name: string;
  /** Resolves when the store keeps the contract; rejects with an `AssertionError` otherwise. */
  readonly run: () => Promise<void>;
}

/**
 * The shared contract suite of {@link IdempotencyRecordStore} (as Hono runs one router
 * suite against every router): plain async checks with `node:assert`, so any
 * test runner can register them and the library does not depend on one.
 * Every case uses its own keys; the store must allow `maxExecutionAttempts` 3.
 *
 * @param createStore - makes the store under test (may return the same store each time).
 * @returns the cases, to register with the runner.
 * @example
 * ```ts
 * for (const { name, run } of idempotencyRecordStoreContractCases(() => new InMemoryIdempotencyRecordStore())) it(name, run);
 * ```
 */
export function idempotencyRecordStoreContractCases(
  createStore: () => IdempotencyRecordStore | Promise<IdempotencyRecordStore>,
): IdempotencyRecordStoreContractCase[] {
  let counter = 0;
  const fresh = () => `contract-${Date.now().toString(36)}-${(counter += 1)}/run/call`;
  const retryable: ToolEffectClass[] = ["read", "idempotent_write"];
  const atMostOnce: ToolEffectClass[] = ["non_idempotent_write", "unclassified"];
  const all = [...retryable, ...atMostOnce];

  const cases: IdempotencyRecordStoreContractCase[] = [
    {
      name: "the first begin of a key runs execution attempt 1 and records started",
      run: async () => {
        const store = await createStore();
        assert.equal(store.maxExecutionAttempts, 3);
        for (const effectClass of all) {
          const key = fresh();
          assert.deepEqual(await store.begin(key, effectClass), {
            kind: "run",
            executionAttempt: 1,
          });
          const record = await store.get(key);
          assert.equal(record?.state, "started");
          assert.equal(record?.executionAttempts, 1);
          assert.equal(record?.effectClass, effectClass);
          assert.equal(typeof record?.startedAtMs, "number");
        }
        assert.equal(await store.get(fresh()), undefined);
      },
    },
    {
      name: "a recorded success or final failure is reused and never run again, for every class",
      run: async () => {
        const store = await createStore();
        for (const effectClass of all) {
          for (const status of ["succeeded", "failed"] as const) {
            const key = fresh();
            await store.begin(key, effectClass);
            const result = { status, content: `résumé ${status}`, nested: [1, { a: null }] };
            assert.deepEqual(await store.complete(key, status, result), { status, result });
            for (let again = 0; again < 2; again += 1) {
              assert.deepEqual(await store.begin(key, effectClass), {
                kind: "reuse",
                status,
                result,
              });
            }
            const record = await store.get(key);
            assert.equal(record?.state, status);
            assert.equal(record?.executionAttempts, 1);
            assert.deepEqual(record?.result, result);
            assert.equal(typeof record?.completedAtMs, "number");
          }
        }
      },
    },
    {
      name: "a started read or idempotent_write runs again up to 3 execution attempts in all, then is outcome unknown",
      run: async () => {
        const store = await createStore();
        for (const effectClass of retryable) {
          const key = fresh();
          assert.deepEqual(await store.begin(key, effectClass), {
            kind: "run",
            executionAttempt: 1,
          });
          assert.deepEqual(await store.begin(key, effectClass), {
            kind: "run",
            executionAttempt: 2,
          });
          assert.deepEqual(await store.begin(key, effectClass), {
            kind: "run",
            executionAttempt: 3,
          });
          assert.deepEqual(await store.begin(key, effectClass), {
            kind: "outcome_unknown",
            executionAttempts: 3,
          });
          assert.equal((await store.get(key))?.executionAttempts, 3);
        }
      },
    },
    {
      name: "a started non_idempotent_write or unclassified call is outcome unknown and never runs again",
      run: async () => {
        const store = await createStore();
        for (const effectClass of atMostOnce) {
          const key = fresh();
          await store.begin(key, effectClass);
          for (let again = 0; again < 3; again += 1) {
            assert.deepEqual(await store.begin(key, effectClass), {
              kind: "outcome_unknown",
              executionAttempts: 1,
            });
          }
          assert.equal((await store.get(key))?.state, "started");
        }
      },
    },
    {
      name: "the first complete wins; later ones get the recorded outcome back",
      run: async () => {
        const store = await createStore();
        const key = fresh();
        await store.begin(key, "read");
        await store.complete(key, "succeeded", { content: "first" });
        assert.deepEqual(await store.complete(key, "failed", { content: "second" }), {
          status: "succeeded",
          result: { content: "first" },
        });
        assert.deepEqual(await store.begin(key, "read"), {
          kind: "reuse",
          status: "succeeded",
          result: { content: "first" },
        });
      },
    },
    {
      name: "of concurrent begins on a new key exactly one runs",
      run: async () => {
        const store = await createStore();
        const key = fresh();
        const decisions = await Promise.all(
          Array.from({ length: 10 }, () => store.begin(key, "non_idempotent_write")),
        );
        assert.equal(decisions.filter((decision) => decision.kind === "run").length, 1);
        assert.equal(decisions.filter((decision) => decision.kind === "outcome_unknown").length, 9);
      },
    },
    {
      name: "complete without begin records the outcome; keys are independent",
      run: async () => {
        const store = await createStore();
        const [first, second] = [fresh(), fresh()];
        await store.complete(first, "failed", "plain string");
        assert.deepEqual(await store.begin(first, "read"), {
          kind: "reuse",
          status: "failed",
          result: "plain string",
        });
        assert.equal((await store.get(first))?.executionAttempts, 0);
        assert.deepEqual(await store.begin(second, "read"), { kind: "run", executionAttempt: 1 });
      },
    },
    {
      name: "a started call whose execution attempt is marked live is running for every other begin, for every class, and nothing is counted",
      run: async () => {
        const store = await createStore();
        for (const effectClass of all) {
          const key = fresh();
          assert.deepEqual(await store.begin(key, effectClass, { livenessMs: 60_000 }), {
            kind: "run",
            executionAttempt: 1,
          });
          for (let again = 0; again < 2; again += 1) {
            const decision = await store.begin(key, effectClass, { livenessMs: 60_000 });
            assert.equal(decision.kind, "running");
            assert.equal(decision.kind === "running" && decision.executionAttempts, 1);
            assert.ok(decision.kind === "running" && decision.liveForMs > 0);
            assert.ok(decision.kind === "running" && decision.liveForMs <= 60_000);
          }
          const record = await store.get(key);
          assert.equal(record?.executionAttempts, 1);
          assert.ok((record?.liveUntilMs ?? 0) > (record?.startedAtMs ?? Infinity));
          // The live execution records its result: the waiters reuse it.
          await store.complete(key, "succeeded", { content: "ran once" });
          assert.deepEqual(await store.begin(key, effectClass), {
            kind: "reuse",
            status: "succeeded",
            result: { content: "ran once" },
          });
          assert.equal((await store.get(key))?.liveUntilMs, undefined);
        }
      },
    },
    {
      name: "the executor retrying its own live attempt runs the next one; an expired mark decides as without a mark",
      run: async () => {
        const store = await createStore();
        const retried = fresh();
        await store.begin(retried, "read", { livenessMs: 60_000 });
        assert.deepEqual(await store.begin(retried, "read", { retryingAttempt: 1 }), {
          kind: "run",
          executionAttempt: 2,
        });
        // Begun without livenessMs: no mark, so the next begin does not wait.
        assert.equal((await store.get(retried))?.liveUntilMs, undefined);
        assert.deepEqual(await store.begin(retried, "read"), { kind: "run", executionAttempt: 3 });

        const [write, read] = [fresh(), fresh()];
        await store.begin(write, "non_idempotent_write", { livenessMs: 40 });
        await store.begin(read, "idempotent_write", { livenessMs: 40 });
        await sleep(120);
        assert.deepEqual(await store.begin(write, "non_idempotent_write"), {
          kind: "outcome_unknown",
          executionAttempts: 1,
        });
        assert.deepEqual(await store.begin(read, "idempotent_write"), {
          kind: "run",
          executionAttempt: 2,
        });
      },
    },
    {
      name: "keepAlive renews the mark of the latest attempt of a started call only",
      run: async () => {
        const store = await createStore();
        const key = fresh();
        await store.begin(key, "non_idempotent_write", { livenessMs: 40 });
        assert.equal(await store.keepAlive(key, 1, 60_000), true);
        await sleep(120);
        assert.equal((await store.begin(key, "non_idempotent_write")).kind, "running");
        assert.equal(await store.keepAlive(key, 2, 60_000), false);
        await store.complete(key, "failed", "done");
        assert.equal(await store.keepAlive(key, 1, 60_000), false);
        assert.equal((await store.get(key))?.state, "failed");
        assert.equal(await store.keepAlive(fresh(), 1, 60_000), false);
        assert.equal((await store.get(key))?.liveUntilMs, undefined);
      },
    },
  ];
  return cases;
}
