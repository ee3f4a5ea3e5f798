import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { METRICS, toolCallStatusSchema, type MetricDefinition } from "@troupe/protocol";
import { parseDocument, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import {
  prometheusLabels,
  prometheusName,
  prometheusSanitized,
  troupeSeriesNames,
} from "../support/prometheus-names.js";
import { promqlNames } from "../support/promql-names.js";

/**
 * The Grafana dashboard, the Prometheus alert rules and the example Prometheus
 * configuration in infra/observability, and the operator guide's metrics table
 * (issue #18): every PromQL expression refers only to the Prometheus names of
 * `METRICS` (and `up`) with their own labels, every metric has a panel, the
 * dashboard's data source is the `${DS_PROMETHEUS}` input, and — where
 * `promtool` is installed (Debian's `prometheus` package) — the rules and the
 * configuration are valid, the dashboard's expressions parse, and the alert
 * unit tests (prometheus-alerts.test.yml) pass.
 */
const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
const folder = join(repositoryRoot, "infra/observability");
const run = promisify(execFile);

const promtoolInstalled = await run("promtool", ["--version"])
  .then(() => true)
  .catch(() => false);
if (!promtoolInstalled) {
  process.stderr.write(
    "observability-assets.test.ts: promtool checks SKIPPED — no promtool on PATH (apt-get install prometheus).\n",
  );
}

interface DashboardTarget {
  readonly expr: string;
  readonly datasource: { type: string; uid: string };
}
interface DashboardPanel {
  readonly type: string;
  readonly title: string;
  readonly datasource?: { type: string; uid: string };
  readonly gridPos: { h: number; w: number; x: number; y: number };
  readonly targets?: readonly DashboardTarget[];
}
interface Dashboard {
  readonly __inputs: readonly { name: string; type: string; pluginId: string }[];
  readonly uid: string;
  readonly panels: readonly DashboardPanel[];
  readonly templating: {
    list: readonly { name: string; datasource: { uid: string }; query: { query: string } }[];
  };
}
interface AlertRule {
  readonly alert: string;
  readonly expr: string;
}

const dashboard = JSON.parse(
  await readFile(join(folder, "grafana-dashboard.json"), "utf8"),
) as Dashboard;
const alertRules = (
  parseDocument(await readFile(join(folder, "prometheus-alerts.yml"), "utf8")).toJS() as {
    groups: { name: string; rules: AlertRule[] }[];
  }
).groups.flatMap((group) => group.rules);
const panelTargets = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, ...target })),
);
/** Template variable queries are `label_values(<selector>, <label>)`. */
const variableQueries = dashboard.templating.list.map((variable) => {
  const match = /^label_values\((.+),\s*(\w+)\)$/.exec(variable.query.query);
  if (match === null) throw new Error(`variable ${variable.name}: ${variable.query.query}`);
  return { name: variable.name, selector: match[1]!, label: match[2]! };
});
const expressions: readonly { source: string; expr: string }[] = [
  ...panelTargets.map((target) => ({ source: `panel "${target.panel}"`, expr: target.expr })),
  ...variableQueries.map((query) => ({
    source: `variable ${query.name}`,
    expr: `sum by (${query.label}) (${query.selector})`,
  })),
  ...alertRules.map((rule) => ({ source: `alert ${rule.alert}`, expr: rule.expr })),
];

/** Labels every scraped series has, besides a metric's own attributes. */
const targetLabels = ["job", "instance", "otel_scope_name"];
const allowedLabels = (metric: string): string[] => {
  const definition = troupeSeriesNames.get(metric);
  if (definition === undefined) return targetLabels; // `up`
  return [
    ...targetLabels,
    ...prometheusLabels(definition),
    ...(metric.endsWith("_bucket") ? ["le"] : []),
  ];
};
const metricsOf = (expression: string): MetricDefinition[] =>
  promqlNames(expression)
    .metrics.map((name) => troupeSeriesNames.get(name))
    .filter((metric): metric is MetricDefinition => metric !== undefined);

describe("observability assets in infra/observability", () => {
  it("every expression names only METRICS (Prometheus names) or up, with their own labels", () => {
    expect(expressions.length).toBeGreaterThan(20);
    for (const { source, expr } of expressions) {
      const names = promqlNames(expr);
      expect(names.metrics.length, `${source} selects a metric`).toBeGreaterThan(0);
      for (const metric of names.metrics) {
        expect(
          metric === "up" || troupeSeriesNames.has(metric),
          `${source}: ${metric} is not the Prometheus name of a metric in METRICS`,
        ).toBe(true);
      }
      const allowed = new Set(names.metrics.flatMap(allowedLabels));
      for (const label of names.labels) {
        expect(allowed.has(label), `${source}: label ${label} of ${names.metrics.join(", ")}`).toBe(
          true,
        );
      }
    }
  });

  it("a literal tool outcome in a matcher is one Troupe reports", () => {
    const outcomeLabel = prometheusSanitized(METRICS.toolCalls.attributes[1]);
    const outcomes = expressions.flatMap(({ expr }) =>
      promqlNames(expr)
        .matchers.filter(([label]) => label === outcomeLabel)
        .map(([, , value]) => value),
    );
    expect(outcomes).toContain("outcome_unknown");
    for (const outcome of outcomes) expect(toolCallStatusSchema.options).toContain(outcome);
  });

  it("the dashboard has a panel for every metric, reads the ${DS_PROMETHEUS} input and panels do not overlap", () => {
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({
        name: "DS_PROMETHEUS",
        type: "datasource",
        pluginId: "prometheus",
      }),
    ]);
    const uids = [
      ...dashboard.panels
        .filter((panel) => panel.type !== "row")
        .map((panel) => panel.datasource?.uid),
      ...panelTargets.map((target) => target.datasource.uid),
      ...dashboard.templating.list.map((variable) => variable.datasource.uid),
    ];
    expect(new Set(uids)).toEqual(new Set(["${DS_PROMETHEUS}"]));

    const panelled = new Set(panelTargets.flatMap((target) => metricsOf(target.expr)));
    const missing = Object.values(METRICS)
      .filter((metric) => !panelled.has(metric))
      .map((metric) => metric.name);
    expect(missing).toEqual([]);

    const cells = new Map<string, string>();
    for (const panel of dashboard.panels) {
      const { x, y, w, h } = panel.gridPos;
      expect(x + w, `${panel.title} fits 24 columns`).toBeLessThanOrEqual(24);
      for (let row = y; row < y + h; row += 1) {
        for (let column = x; column < x + w; column += 1) {
          const other = cells.get(`${row}:${column}`);
          expect(other, `${panel.title} overlaps ${other}`).toBeUndefined();
          cells.set(`${row}:${column}`, panel.title);
        }
      }
    }
  });

  it("the alert rules cover host down, inbox lag growing, dead letters and outcome unknown", () => {
    expect(alertRules.map((rule) => rule.alert)).toEqual([
      "TroupeHostDown",
      "TroupeInboxLagGrowing",
      "TroupeDeadLetters",
      "TroupeToolOutcomeUnknown",
    ]);
    const metricsByAlert = Object.fromEntries(
      alertRules.map((rule) => [rule.alert, promqlNames(rule.expr).metrics]),
    );
    expect(metricsByAlert).toEqual({
      TroupeHostDown: ["up"],
      TroupeInboxLagGrowing: [prometheusName(METRICS.inboxLag)],
      TroupeDeadLetters: [prometheusName(METRICS.deadLetters)],
      TroupeToolOutcomeUnknown: [prometheusName(METRICS.toolCalls)],
    });
  });

  it("the operator guide's metrics table lists every metric with its Prometheus name", async () => {
    const guide = await readFile(join(repositoryRoot, "docs/operating/observability.md"), "utf8");
    for (const metric of Object.values(METRICS)) {
      const row = guide.split("\n").find((line) => line.startsWith(`| \`${metric.name}\``));
      expect(row, `a table row for ${metric.name}`).toBeDefined();
      expect(row).toContain(`\`${prometheusName(metric)}\``);
      expect(row).toContain(`\`${metric.unit}\``);
      for (const label of prometheusLabels(metric)) expect(row).toContain(`\`${label}\``);
    }
  });

  describe.skipIf(!promtoolInstalled)("promtool", () => {
    it("accepts the alert rules and the example configuration", async () => {
      const rules = await run("promtool", ["check", "rules", "prometheus-alerts.yml"], {
        cwd: folder,
      });
      expect(rules.stdout).toContain(`SUCCESS: ${alertRules.length} rules found`);
      const config = await run("promtool", ["check", "config", "prometheus.yml"], { cwd: folder });
      expect(config.stdout).toContain("SUCCESS: 1 rule files found");
    });

    it("passes the alert unit tests: each alert fires on its series only", async () => {
      const { stdout } = await run("promtool", ["test", "rules", "prometheus-alerts.test.yml"], {
        cwd: folder,
      });
      expect(stdout).toContain("SUCCESS");
    });

    it("parses every dashboard expression (as recording rules, Grafana variables filled in)", async () => {
      const directory = await mkdtemp(join(tmpdir(), `${testRunMarker()}dashboard-rules-`));
      try {
        const rules = panelTargets.map((target, index) => ({
          record: `troupe_dashboard:panel_${index}`,
          expr: target.expr
            .replaceAll("$__rate_interval", "1m")
            .replaceAll("$__range", "1h")
            .replaceAll("$job", ".*")
            .replaceAll("$instance", ".*"),
        }));
        const file = join(directory, "dashboard-rules.yml");
        await writeFile(file, stringify({ groups: [{ name: "dashboard", rules }] }));
        const { stdout } = await run("promtool", ["check", "rules", file]);
        expect(stdout).toContain(`SUCCESS: ${rules.length} rules found`);
        // A broken expression is refused, so the check above is not a no-op.
        await writeFile(
          file,
          stringify({
            groups: [{ name: "broken", rules: [{ record: "x:y", expr: "sum(rate(x[1m])" }] }],
          }),
        );
        await expect(run("promtool", ["check", "rules", file])).rejects.toThrow(/parse error/);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    });
  });
});
