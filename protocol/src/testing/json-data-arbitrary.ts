import fc from "fast-check";

/** Object keys for generated data: any short string except `__proto__`. */
export const dataKeyArbitrary = fc.string({ maxLength: 12 }).filter((key) => key !== "__proto__");

/**
 * Arbitrary values of the JSON data model that survive both codecs unchanged:
 * no `-0`, no lone surrogates, no `__proto__` keys, ordinary prototypes.
 *
 * @param maxDepth - how deep arrays and objects may nest.
 * @returns an arbitrary of plain data.
 */
export function jsonDataArbitrary(maxDepth = 3): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { maxDepth, depthSize: "small" },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.maxSafeInteger(),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .map((number) => (number === 0 ? 0 : number)),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: "grapheme", maxLength: 8 }),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(dataKeyArbitrary, tie("value"), { maxKeys: 4, noNullPrototype: true }),
    ),
  })).value;
}

/** Arbitrary plain objects of JSON data. */
export const jsonRecordArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  dataKeyArbitrary,
  jsonDataArbitrary(2),
  { maxKeys: 4, noNullPrototype: true },
);
