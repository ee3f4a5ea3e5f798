#!/usr/bin/env node
// Prints where a test run's time went: the slowest test files (and, with
// --tests, the slowest tests) from the vitest JSON reports that `npm test`
// writes to test-results/ (one report per package; see vitest.shared.ts).
//
//   node infra/test-timings.mjs [--top N] [--tests] [--markdown] [REPORT_DIR_OR_FILE ...]
//
// Default: the 20 slowest files of every report in ./test-results. A file's
// time is its wall time in its worker (first test start to last test end,
// setup hooks included, as vitest reports it); with parallel workers the sum
// is larger than the run's wall time, which the last line prints beside it.
//
// Plain JavaScript on purpose, like ensure-servers.mjs: it runs with no build.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const args = process.argv.slice(2);
let top = 20;
let showTests = false;
let markdown = false;
const sources = [];
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index];
  if (arg === "--top") top = Number.parseInt(args[++index] ?? "", 10);
  else if (arg === "--tests") showTests = true;
  else if (arg === "--markdown") markdown = true;
  else if (arg === "--help" || arg === "-h") {
    console.log(
      "usage: node infra/test-timings.mjs [--top N] [--tests] [--markdown] [DIR|FILE ...]",
    );
    process.exit(0);
  } else sources.push(arg);
}
if (!Number.isInteger(top) || top < 1) {
  console.error("--top needs a positive whole number");
  process.exit(2);
}
if (sources.length === 0) sources.push("test-results");

const reportFiles = sources.flatMap((source) => {
  let stats;
  try {
    stats = statSync(source);
  } catch {
    console.error(
      `no test report at ${source} (run the tests with CI=true or TROUPE_TEST_REPORTS=1 first)`,
    );
    process.exit(2);
  }
  if (!stats.isDirectory()) return [source];
  return readdirSync(source)
    .filter((name) => name.endsWith(".json"))
    .map((name) => join(source, name));
});

const files = [];
const tests = [];
let firstStart = Infinity;
let lastEnd = 0;
const counts = { passed: 0, failed: 0, skipped: 0 };
for (const reportFile of reportFiles) {
  let report;
  try {
    report = JSON.parse(readFileSync(reportFile, "utf8"));
  } catch (error) {
    console.error(`skipping ${reportFile}: not a vitest JSON report (${error.message})`);
    continue;
  }
  for (const file of report.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const durationMs = Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0));
    if (file.startTime) firstStart = Math.min(firstStart, file.startTime);
    if (file.endTime) lastEnd = Math.max(lastEnd, file.endTime);
    const results = file.assertionResults ?? [];
    files.push({ name, durationMs, count: results.length, status: file.status });
    for (const test of results) {
      if (test.status === "passed") counts.passed += 1;
      else if (test.status === "failed") counts.failed += 1;
      else counts.skipped += 1;
      tests.push({ name: `${name} > ${test.fullName}`, durationMs: test.duration ?? 0 });
    }
  }
}

const seconds = (ms) => (ms / 1000).toFixed(1);
function print(title, rows, columns) {
  const shown = rows.sort((a, b) => b.durationMs - a.durationMs).slice(0, top);
  console.log(`\n${title}`);
  if (markdown) {
    console.log(`| ${columns.join(" | ")} |`);
    console.log(`| ${columns.map(() => "---").join(" | ")} |`);
  }
  for (const row of shown) {
    const cells = [
      seconds(row.durationMs),
      ...(row.count === undefined ? [] : [row.count]),
      row.name,
    ];
    console.log(markdown ? `| ${cells.join(" | ")} |` : cells.map(String).join("\t"));
  }
}

print(
  `${Math.min(top, files.length)} slowest of ${files.length} test files (s, tests, file)`,
  files,
  ["s", "tests", "file"],
);
if (showTests)
  print(`${Math.min(top, tests.length)} slowest tests (s, test)`, tests, ["s", "test"]);
const summed = files.reduce((sum, file) => sum + file.durationMs, 0);
console.log(
  `\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${files.length} files; ` +
    `file times add up to ${seconds(summed)} s, first start to last end ${seconds(Math.max(0, lastEnd - firstStart))} s`,
);
// The plain closing line a CI log reader looks for.
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
