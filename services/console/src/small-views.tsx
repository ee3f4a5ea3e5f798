// Small shared pieces of the console's pages.

/** An error's message in red, or nothing. */
export function ErrorLine({ error }: { error: Error | undefined }) {
  if (error === undefined) return null;
  return <p className="error">{error.message}</p>;
}

/** A time as the local clock shows it, with the ISO time on hover. */
export function When({ iso, ms }: { iso?: string; ms?: number }) {
  const date = iso !== undefined ? new Date(iso) : new Date(ms ?? 0);
  return <time title={date.toISOString()}>{date.toLocaleTimeString()}</time>;
}

/** JSON, indented, in a scrollable block. */
export function Json({ value }: { value: unknown }) {
  return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
}
