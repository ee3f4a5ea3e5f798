import { describe, expect, it } from "vitest";
import { promqlNames } from "./promql-names.js";

describe("promqlNames", () => {
  it("finds metrics, labels, functions and matchers, not strings, durations or variables", () => {
    const names = promqlNames(
      'histogram_quantile(0.99, sum by (le, troupe_actor_kind) (rate(troupe_step_duration_bucket{job=~"$job", instance=~"a|b"}[$__rate_interval])))',
    );
    expect(names.metrics).toEqual(["troupe_step_duration_bucket"]);
    expect(names.labels).toEqual(["job", "instance", "le", "troupe_actor_kind"]);
    expect(names.functions).toEqual(["histogram_quantile", "sum", "rate"]);
    expect(names.matchers).toEqual([
      ["job", "=~", "$job"],
      ["instance", "=~", "a|b"],
    ]);
  });

  it("reads both sides of binary operators, offsets and on/ignoring clauses", () => {
    const names = promqlNames(
      "sum by (job) (increase(x_total[10m])) > 0 or (y_total unless on (instance) y_total offset 10m) and bool 1e3",
    );
    expect(names.metrics).toEqual(["x_total", "y_total"]);
    expect(names.labels).toEqual(["job", "instance"]);
  });

  it("does not take a word inside a string for a metric", () => {
    expect(promqlNames('up{job="troupe-host or up2"} == 0').metrics).toEqual(["up"]);
  });

  it("refuses a function it does not know, so a typo is not read as a metric", () => {
    expect(() => promqlNames("rte(x_total[5m])")).toThrow(/unknown PromQL function rte/);
  });
});
