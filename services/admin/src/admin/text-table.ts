/** How a column aligns its cells: text left, numbers right. */
export type ColumnAlignment = "left" | "right";

/** A column of {@link textTable}: a heading and an alignment (default `left`). */
export interface TextColumn {
  readonly heading: string;
  readonly align?: ColumnAlignment;
}

/**
 * Lays rows out as a plain-text table: a heading line, then one line per row,
 * columns padded to their widest cell and separated by two spaces; trailing
 * spaces are trimmed. No colors, no borders.
 *
 * @param columns - headings and alignments.
 * @param rows - cells as text, one array per row (missing cells are empty).
 * @returns the lines joined with `\n` (no trailing newline).
 * @example
 * textTable([{ heading: "shard" , align: "right" }, { heading: "owner" }], [["0", "host-a"]]);
 * // "shard  owner\n    0  host-a"
 */
export function textTable(
  columns: readonly TextColumn[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columns.map((column, index) =>
    Math.max(column.heading.length, ...rows.map((row) => (row[index] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? "";
        const width = widths[index] ?? 0;
        return column.align === "right" ? cell.padStart(width) : cell.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  return [line(columns.map((column) => column.heading)), ...rows.map(line)].join("\n");
}

/**
 * Lays out `label: value` pairs with the values aligned.
 *
 * @param pairs - labels and values, in order.
 * @param indent - spaces before each line; default 0.
 * @returns the lines joined with `\n`.
 * @example
 * labelledLines([["shard", "7"], ["owner", "host-a"]]); // "shard  7\nowner  host-a"
 */
export function labelledLines(
  pairs: readonly (readonly [label: string, value: string])[],
  indent = 0,
): string {
  const width = Math.max(0, ...pairs.map(([label]) => label.length));
  return pairs
    .map(([label, value]) => `${" ".repeat(indent)}${label.padEnd(width)}  ${value}`.trimEnd())
    .join("\n");
}
