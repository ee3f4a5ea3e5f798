import type { z } from "zod";

/**
 * A registry of payload schemas by type: message types in `MessageSchemas`, event
 * types in `EventSchemas`. Decoders look the envelope's `type` up here.
 *
 * Shape: `{ [type: string]: z.ZodType }`, e.g. `{ "user.message": userMessageSchema }`.
 */
export type PayloadSchemas = Readonly<Record<string, z.ZodType>>;

/**
 * The payload type of `type` in registry `S`: the schema's output, or `unknown`
 * when `S` does not name `type` (or `type` is just `string`).
 */
export type PayloadOf<S extends PayloadSchemas, T extends string> = string extends T
  ? unknown
  : T extends keyof S
    ? z.output<S[T]>
    : unknown;
