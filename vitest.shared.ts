import { defineConfig } from "vitest/config";

/**
 * Shared vitest settings: resolve workspace packages to their TypeScript sources
 * (the `@troupe/source` export condition) and never run compiled copies in `dist/`.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ["@troupe/source"] },
  ssr: { resolve: { conditions: ["@troupe/source"] } },
  // vitest runs global setup files in its own environment: sources there too.
  environments: { __vitest__: { resolve: { conditions: ["@troupe/source"] } } },
  test: {
    include: ["src/**/*.test.ts"],
    exclude: ["dist/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
