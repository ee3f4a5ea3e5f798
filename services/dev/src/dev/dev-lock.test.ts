import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DevAlreadyRunningError } from "./dev-already-running-error.js";
import { acquireDevLock, devLockPath } from "./dev-lock.js";

const savedHome = process.env.TROUPE_HOME;
let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "troupe-unit-lock-"));
  process.env.TROUPE_HOME = home;
});

afterEach(async () => {
  if (savedHome === undefined) delete process.env.TROUPE_HOME;
  else process.env.TROUPE_HOME = savedHome;
  await rm(home, { recursive: true, force: true });
});

describe("the troupe dev lock", () => {
  it("is refused while a live process holds it, naming that process", async () => {
    // The parent of this test process (the test runner) is alive.
    await writeFile(devLockPath(), `${process.ppid}\n`);
    const error = await acquireDevLock().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DevAlreadyRunningError);
    expect((error as DevAlreadyRunningError).pid).toBe(process.ppid);
    expect((error as Error).message).toContain(`pid ${process.ppid}, still starting`);
  });

  it("is taken over from a process that is gone, and released by its holder", async () => {
    await writeFile(devLockPath(), "99999999\n");
    const release = await acquireDevLock();
    expect(await readFile(devLockPath(), "utf8")).toBe(`${process.pid}\n`);
    await release();
    await expect(readFile(devLockPath(), "utf8")).rejects.toThrow(/ENOENT/);
  });
});
