import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONSOLE_ROOT, SOURCE_HASH_FILE, consoleSourceHash } from "../scripts/source-hash.mjs";

const dist = join(CONSOLE_ROOT, "..", "gateway", "console-dist");

describe("the committed console build (services/gateway/console-dist)", () => {
  it("was built from the sources as they are now: run `npm run build -w @troupe/console` and commit console-dist when this fails", () => {
    const built = readFileSync(join(dist, SOURCE_HASH_FILE), "utf8").trim();
    expect(built).toMatch(/^[0-9a-f]{64}$/);
    expect(built).toBe(consoleSourceHash());
  });

  it("has an index.html that loads the built script and style from ./assets", () => {
    const html = readFileSync(join(dist, "index.html"), "utf8");
    expect(html).toMatch(
      /<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js"><\/script>/,
    );
    expect(html).toMatch(
      /<link rel="stylesheet" crossorigin href="\.\/assets\/index-[\w-]+\.css">/,
    );
  });
});
