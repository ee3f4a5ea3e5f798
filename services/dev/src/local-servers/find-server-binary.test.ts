import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { findServerBinary } from "./find-server-binary.js";

describe.skipIf(process.platform === "win32")("findServerBinary", () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "troupe-find-binary-"));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  test("returns the first executable file of that name on the given PATH", async () => {
    const binary = join(folder, "troupe-fake-server");
    await writeFile(binary, "#!/bin/sh\n");
    await chmod(binary, 0o755);

    const found = findServerBinary("troupe-fake-server", {
      searchPath: ["/nonexistent-troupe-folder", folder].join(delimiter),
    });

    expect(found).toBe(binary);
  });

  test("skips a file of that name that is not executable, and returns undefined when nothing matches", async () => {
    const binary = join(folder, "troupe-fake-server");
    await writeFile(binary, "not a program\n");
    await chmod(binary, 0o644);

    expect(findServerBinary("troupe-fake-server", { searchPath: folder })).toBeUndefined();
  });
});
