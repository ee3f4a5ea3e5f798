import { defineConfig, mergeConfig } from "vitest/config";
import { maxWorkers, sharedConfig } from "../vitest.shared.js";

export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      // Names the run, picks containers or local binaries once, builds the
      // child processes' code once, and fails the run if any test server
      // outlived its suite.
      globalSetup: ["src/harness/global-setup.ts"],
      // Before each file: no process-wide state left by the previous file of
      // the same worker (files share a module graph, below).
      setupFiles: ["src/harness/reset-process-state.ts"],
      // Integration files spend most of their time waiting on servers and
      // child processes, and each has its own servers on its own ports
      // (harness/README.md), so more files run at once than there are cores.
      maxWorkers: maxWorkers((cores) => cores + 2),
      // Safety nets against a hang, not expectations of speed: with several
      // files at once on a small machine every step takes longer, and a test
      // proves its state by waiting for the event, so a generous ceiling
      // costs nothing when the code is right.
      testTimeout: 180_000,
      hookTimeout: 240_000,
    },
  }),
);
