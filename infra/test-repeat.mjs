#!/usr/bin/env node
// Runs one or more test files N times in a row, to find a test that fails only
// now and then (a timing assumption), and prints how each round ended:
//
//   npm run test:repeat -- <file> [<file> ...] <N> [--parallel K] [-- <vitest args>]
//   npm run test:repeat -- test/src/deploy/host-health.test.ts 10
//   npm run test:repeat -- test/src/cli/cli.test.ts 5 --parallel 2   # 2 rounds at once, to add load
//
// Each file path is relative to the repository root; files of one package run
// in that package (where its vitest.config.ts is). A round is one `vitest run`
// of all the files. The output of a failed round is kept in
// test-results/repeat/round-<n>.log. Exit status: 0 if every round passed, 1
// otherwise, 2 on a usage error.
//
// Plain JavaScript, like the other infra/ scripts: it runs with no build.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const usage =
  "usage: npm run test:repeat -- <file> [<file> ...] <N> [--parallel K] [-- <vitest args>]";

const argv = process.argv.slice(2);
const passThrough = argv.includes("--") ? argv.splice(argv.indexOf("--")).slice(1) : [];
let parallel = 1;
const positional = [];
for (let index = 0; index < argv.length; index += 1) {
  if (argv[index] === "--parallel") parallel = Number.parseInt(argv[++index] ?? "", 10);
  else if (argv[index] === "--help" || argv[index] === "-h") {
    console.log(usage);
    process.exit(0);
  } else positional.push(argv[index]);
}
const rounds = Number.parseInt(positional.at(-1) ?? "", 10);
const files = positional.slice(0, -1);
if (files.length === 0 || !Number.isInteger(rounds) || rounds < 1) fail(usage);
if (!Number.isInteger(parallel) || parallel < 1) fail("--parallel needs a positive whole number");

/** The package folder (nearest vitest.config.ts) of each file, and its path there. */
const byPackage = new Map();
for (const file of files) {
  const absolute = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  if (!existsSync(absolute)) fail(`no such test file: ${file}`);
  let folder = dirname(absolute);
  while (!existsSync(join(folder, "vitest.config.ts"))) {
    if (folder === root || folder === dirname(folder))
      fail(`${file} is in no package with a vitest.config.ts`);
    folder = dirname(folder);
  }
  byPackage.set(folder, [...(byPackage.get(folder) ?? []), relative(folder, absolute)]);
}

const logFolder = join(root, "test-results", "repeat");
mkdirSync(logFolder, { recursive: true });

// Rounds at once share this checkout's dist/: each round's global setup would
// rebuild and `npm pack` (whose prepack empties dist/) under the others. Build
// once here; TROUPE_TEST_BUILT=1 tells the rounds to skip their build and to
// pack what is built without running prepack.
const env = { ...process.env, FORCE_COLOR: "0" };
if (parallel > 1 && rounds > 1) {
  console.log("building once for the parallel rounds (turbo run build --filter=@troupe/test...)");
  const built = await new Promise((resolveCode) => {
    const child = spawn(
      join(root, "node_modules", ".bin", "turbo"),
      ["run", "build", "--filter=@troupe/test...", "--output-logs=errors-only"],
      { cwd: root, stdio: "inherit" },
    );
    child.once("close", resolveCode);
  });
  if (built !== 0) fail("the build failed");
  env.TROUPE_TEST_BUILT = "1";
}

/** One round: every package's files, one package after the other; resolves to [passed, output]. */
async function round() {
  let output = "";
  for (const [folder, packageFiles] of byPackage) {
    const code = await new Promise((resolveCode) => {
      const child = spawn(
        process.execPath,
        [
          join(root, "node_modules", "vitest", "vitest.mjs"),
          "run",
          ...packageFiles,
          ...passThrough,
        ],
        {
          cwd: folder,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      child.once("close", resolveCode);
    });
    if (code !== 0) return [false, output];
  }
  return [true, output];
}

const results = [];
let next = 1;
const startedAt = Date.now();
async function lane() {
  while (next <= rounds) {
    const number = next++;
    const roundStart = Date.now();
    const [passed, output] = await round();
    const seconds = ((Date.now() - roundStart) / 1000).toFixed(1);
    results.push(passed);
    if (!passed) writeFileSync(join(logFolder, `round-${number}.log`), output);
    console.log(
      `round ${number}/${rounds}: ${passed ? "passed" : "FAILED"} in ${seconds} s` +
        (passed
          ? ""
          : ` (output: ${relative(process.cwd(), join(logFolder, `round-${number}.log`))})`),
    );
  }
}
await Promise.all(Array.from({ length: Math.min(parallel, rounds) }, lane));
const failed = results.filter((passed) => !passed).length;
console.log(
  `${files.join(", ")}: ${rounds - failed} of ${rounds} rounds passed ` +
    `(${parallel} at a time, ${((Date.now() - startedAt) / 1000).toFixed(0)} s)`,
);
process.exit(failed === 0 ? 0 : 1);

function fail(message) {
  console.error(message);
  process.exit(2);
}
