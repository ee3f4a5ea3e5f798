/**
 * The metric names and label names a PromQL expression refers to, for checking
 * that Troupe's dashboard and alert rules use only the names of `METRICS`
 * (issue #18). Not a PromQL parser: `promtool` checks the syntax; this reads
 * the names of well-formed expressions — selectors (`name{label="v"}`),
 * grouping clauses (`by (…)`, `without`, `on`, `ignoring`, `group_left`,
 * `group_right`) and function calls — with strings, durations, numbers and
 * Grafana variables (`$__rate_interval`, `$job`) set aside.
 */

/** What {@link promqlNames} found. */
export interface PromqlNames {
  /** Metric names of selectors, in order of appearance, each once. */
  readonly metrics: readonly string[];
  /** Label names in matchers and grouping clauses, each once. */
  readonly labels: readonly string[];
  /** Functions and aggregations called, each once. */
  readonly functions: readonly string[];
  /** Label matchers with a literal value: `[label, operator, value]`. */
  readonly matchers: readonly (readonly [string, string, string])[];
}

/** PromQL functions and aggregation operators the extractor accepts. */
const knownFunctions = new Set([
  "abs",
  "absent",
  "avg",
  "avg_over_time",
  "clamp_min",
  "count",
  "delta",
  "deriv",
  "histogram_quantile",
  "increase",
  "irate",
  "max",
  "max_over_time",
  "min",
  "min_over_time",
  "rate",
  "sort_desc",
  "sum",
  "topk",
  "vector",
]);
const keywords = new Set(["and", "or", "unless", "bool", "offset", "inf", "nan"]);
const identifier = "[a-zA-Z_][a-zA-Z0-9_]*";

/**
 * Reads the names an expression refers to.
 *
 * @param expression - a PromQL expression; Grafana variables are allowed.
 * @returns its metric names, label names, functions and literal matchers.
 * @throws Error naming a function the extractor does not know (a typo, or a
 *   function to add to its list).
 */
export function promqlNames(expression: string): PromqlNames {
  const metrics = new Set<string>();
  const labels = new Set<string>();
  const functions = new Set<string>();
  const matchers: [string, string, string][] = [];
  // Label matchers, with their values (Grafana variables kept) before strings are blanked.
  let rest = expression.replace(/\{([^}]*)\}/g, (_, body: string) => {
    for (const match of body.matchAll(
      new RegExp(`(${identifier})\\s*(=~|!~|!=|=)\\s*"((?:[^"\\\\]|\\\\.)*)"`, "g"),
    )) {
      labels.add(match[1]!);
      matchers.push([match[1]!, match[2]!, match[3]!]);
    }
    return " ";
  });
  rest = rest.replace(/\$\{?\w+\}?/g, "");
  rest = rest.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  rest = rest.replace(/\[[^\]]*\]/g, " ");
  rest = rest.replace(
    /\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g,
    (_, _clause: string, list: string) => {
      for (const label of list.split(",").map((item) => item.trim())) {
        if (label !== "") labels.add(label);
      }
      return " ";
    },
  );
  for (const match of rest.matchAll(/(\d[\w.]*)|([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    const name = match[2];
    if (name === undefined || keywords.has(name)) continue;
    if (match[3] !== undefined) {
      if (!knownFunctions.has(name))
        throw new Error(`unknown PromQL function ${name} in ${expression}`);
      functions.add(name);
    } else {
      metrics.add(name);
    }
  }
  return { metrics: [...metrics], labels: [...labels], functions: [...functions], matchers };
}
