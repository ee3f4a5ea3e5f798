import { join } from "node:path";
import { defineConfig } from "vite";
import { consoleSourceHash, SOURCE_HASH_FILE } from "./scripts/source-hash.mjs";

// The console builds into the gateway package, which serves and ships it
// (decision 0029). The build is committed; source-hash.txt lets a unit test tell a
// stale one. No React plugin: Vite's own transform handles TSX (automatic
// runtime), and the console needs no fast refresh.
const outDir = join(import.meta.dirname, "..", "gateway", "console-dist");

export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic" } },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
  plugins: [
    {
      name: "troupe-console-source-hash",
      generateBundle() {
        this.emitFile({
          type: "asset",
          fileName: SOURCE_HASH_FILE,
          source: `${consoleSourceHash()}\n`,
        });
      },
    },
  ],
  server: {
    // `npm run dev -w @troupe/console` next to a gateway on the default port.
    proxy: { "/api": "http://127.0.0.1:7400", "/v1": "http://127.0.0.1:7400" },
  },
});
