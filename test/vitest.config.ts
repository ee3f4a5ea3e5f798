import { defineConfig, mergeConfig } from "vitest/config";
import { sharedConfig } from "../vitest.shared.js";

export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      // Names the run, picks containers or local binaries once, and fails the
      // run if any test server outlived its suite.
      globalSetup: ["src/harness/global-setup.ts"],
    },
  }),
);
