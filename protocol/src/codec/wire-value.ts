/**
 * A value of the data model both codecs share, JSON's: `null`, booleans, finite
 * numbers, well-formed strings, arrays and plain objects of those.
 */
export type WireValue =
  null | boolean | number | string | WireValue[] | { [key: string]: WireValue };

/** How deep arrays and objects may nest, counting the envelope itself as 1. */
export const MAX_NESTING_DEPTH = 64;

/** Path of a value inside a body: object keys and array indexes. */
export type WirePath = readonly (string | number)[];

/** Called with what is wrong and where; must throw. */
export type WireProblemHandler = (problem: string, path: WirePath) => never;

const loneSurrogate = /\p{Surrogate}/u;

/**
 * Checks that `value` fits the shared data model, or reports why it does not,
 * and returns it as it is when it fits unchanged — a body decoded from the
 * wire, an envelope about to be encoded — or else a copy of just the parts
 * that change: one walk and no copy of the whole tree (the codecs
 * walked and copied every body two or three times). The value is not modified.
 *
 * - object properties whose value is `undefined` are dropped (as `JSON.stringify` does);
 * - `-0` becomes `0`;
 * - refused: `undefined` elsewhere, `NaN` and infinities, bigints, symbols,
 *   functions, strings with lone surrogates (not encodable as UTF-8), anything but
 *   arrays and plain objects (`Date`, `Map`, binary data, class instances), the
 *   key `__proto__` (prototype pollution), and nesting deeper than
 *   {@link MAX_NESTING_DEPTH}.
 *
 * @param value - decoded or to-be-encoded data.
 * @param onProblem - throws the caller's error for a refused value.
 * @param options - `widenIntegers`: whole numbers beyond 32 bits that are safe
 *   integers become bigints, so that msgpack writes them as 64-bit integers
 *   (see `encodeMsgpack`).
 * @returns `value`, or a copy where something changed.
 */
export function checkedWireValue(
  value: unknown,
  onProblem: WireProblemHandler,
  options: { readonly widenIntegers?: boolean } = {},
): unknown {
  return checked(value, [], onProblem, options.widenIntegers === true);
}

function checked(
  value: unknown,
  path: (string | number)[],
  onProblem: WireProblemHandler,
  widen: boolean,
): unknown {
  switch (typeof value) {
    case "boolean":
      return value;
    case "string":
      if (loneSurrogate.test(value)) onProblem("the string is not well-formed Unicode", path);
      return value;
    case "number":
      if (!Number.isFinite(value)) onProblem(`${value} is not a finite number`, path);
      if (value === 0) return 0;
      return widen && Number.isSafeInteger(value) && (value > 0xffff_ffff || value < -0x8000_0000)
        ? BigInt(value)
        : value;
    case "object":
      if (value === null) return null;
      if (path.length >= MAX_NESTING_DEPTH) {
        onProblem(`the value nests deeper than ${MAX_NESTING_DEPTH} levels`, path);
      }
      return Array.isArray(value)
        ? checkedArray(value, path, onProblem, widen)
        : checkedObject(value, path, onProblem, widen);
    default:
      return onProblem(`${describe(value)} is not plain data`, path);
  }
}

function checkedArray(
  values: unknown[],
  path: (string | number)[],
  onProblem: WireProblemHandler,
  widen: boolean,
): unknown[] {
  let changed: unknown[] | undefined;
  for (let index = 0; index < values.length; index += 1) {
    const entry = values[index];
    path.push(index);
    const next = checked(entry, path, onProblem, widen);
    path.pop();
    if (changed === undefined && !Object.is(next, entry)) changed = values.slice(0, index);
    changed?.push(next);
  }
  return changed ?? values;
}

function checkedObject(
  value: object,
  path: (string | number)[],
  onProblem: WireProblemHandler,
  widen: boolean,
): object {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    onProblem(`${describe(value)} is not a plain object or array`, path);
  }
  const keys = Object.keys(value);
  let changed: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    if (key === "__proto__") onProblem('the key "__proto__" is not allowed', path);
    const entry = (value as Record<string, unknown>)[key];
    let next: unknown;
    if (entry !== undefined) {
      path.push(key);
      next = checked(entry, path, onProblem, widen);
      path.pop();
    }
    if (changed === undefined && (entry === undefined || !Object.is(next, entry))) {
      changed = {};
      for (const earlier of keys.slice(0, index))
        changed[earlier] = (value as Record<string, unknown>)[earlier];
    }
    if (changed !== undefined && entry !== undefined) changed[key] = next;
  }
  return changed ?? value;
}

/**
 * Writes a path for messages: `$`, `$.payload.items[2]`, `$["odd key"]`.
 *
 * @param path - keys and indexes from the root.
 * @returns the path as text.
 */
export function formatWirePath(path: WirePath): string {
  let text = "$";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/u.test(part)) text += `.${part}`;
    else text += `[${JSON.stringify(part.length > 40 ? `${part.slice(0, 40)}…` : part)}]`;
  }
  return text;
}

function describe(value: unknown): string {
  if (typeof value === "object" && value !== null) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name.length > 0 ? `a ${name}` : "an object";
  }
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}
