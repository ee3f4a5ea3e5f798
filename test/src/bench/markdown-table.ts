/** Alignment of a Markdown table column. */
export type ColumnAlignment = "left" | "right";

/** A column of {@link renderMarkdownTable}. */
export interface MarkdownColumn {
  readonly header: string;
  readonly align: ColumnAlignment;
}

/**
 * Renders a Markdown table with padded columns, in the layout prettier gives
 * tables (so the written results pass `prettier --check`). Cells must not hold
 * `|` or line breaks, nor characters wider than one column.
 *
 * @param columns - headers and alignment.
 * @param rows - one string per column in each row.
 * @returns the table, one line per row, without a trailing newline.
 */
export function renderMarkdownTable(
  columns: readonly MarkdownColumn[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columns.map((column, index) =>
    Math.max(3, column.header.length, ...rows.map((row) => (row[index] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${columns
      .map((column, index) => {
        const cell = cells[index] ?? "";
        const width = widths[index] ?? 0;
        return column.align === "right" ? cell.padStart(width) : cell.padEnd(width);
      })
      .join(" | ")} |`;
  const delimiter = `| ${columns
    .map((column, index) => {
      const width = widths[index] ?? 3;
      return column.align === "right" ? `${"-".repeat(width - 1)}:` : "-".repeat(width);
    })
    .join(" | ")} |`;
  return [
    line(columns.map((column) => column.header)),
    delimiter,
    ...rows.map((row) => line(row)),
  ].join("\n");
}
