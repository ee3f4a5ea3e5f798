import type { z } from "zod";
import { DecodeError, type DecodeIssue } from "../errors/decode-error.js";
import type { PayloadSchemas } from "../v1/payload-of.js";

/** What {@link validateEnvelope} checks an envelope against. */
export interface EnvelopeRules {
  /** Envelope schema with `payload: unknown`. */
  readonly envelopeSchema: z.ZodType<{ type: string; payload: unknown }>;
  /** Payload schema by type. */
  readonly schemas: PayloadSchemas;
  /** `"message"` or `"event"`, for error messages. */
  readonly noun: string;
  /** Subject the bytes arrived on; carried by errors. */
  readonly subject: string | undefined;
}

/**
 * Checks an envelope candidate: first the envelope fields, then that the type is
 * in the registry, then the payload against the type's schema.
 *
 * @param candidate - the decoded body, with defaults applied.
 * @param rules - schemas and context.
 * @returns the envelope, its payload replaced by the schema's output (unknown
 *   fields dropped).
 * @throws {@link DecodeError} with reason `schema_invalid` (and zod issues, paths
 *   from the envelope root) or `unknown_type`.
 */
export function validateEnvelope<E extends { type: string; payload: unknown }>(
  candidate: Record<string, unknown>,
  rules: EnvelopeRules,
): E {
  const { subject, noun } = rules;
  const envelope = rules.envelopeSchema.safeParse(candidate);
  if (!envelope.success) {
    const issues = envelope.error.issues;
    throw new DecodeError(`The ${noun} envelope is invalid: ${summarize(issues)}`, {
      reason: "schema_invalid",
      subject,
      issues,
    });
  }
  const { type } = envelope.data;
  if (!Object.hasOwn(rules.schemas, type)) {
    const known = Object.keys(rules.schemas);
    const list = known.length > 30 ? `${known.slice(0, 30).join(", ")}, …` : known.join(", ");
    throw new DecodeError(`Unknown ${noun} type ${JSON.stringify(type)}; known types: ${list}.`, {
      reason: "unknown_type",
      subject,
    });
  }
  const payloadSchema = rules.schemas[type] as z.ZodType;
  let payload: z.ZodSafeParseResult<unknown>;
  try {
    payload = payloadSchema.safeParse(envelope.data.payload);
  } catch (error) {
    throw new DecodeError(`The ${type} payload schema threw while validating.`, {
      reason: "schema_invalid",
      subject,
      cause: error,
    });
  }
  if (!payload.success) {
    const issues = payload.error.issues.map((issue): DecodeIssue => ({
      ...issue,
      path: ["payload", ...issue.path],
    }));
    throw new DecodeError(`The ${type} payload is invalid: ${summarize(issues)}`, {
      reason: "schema_invalid",
      subject,
      issues,
    });
  }
  return { ...envelope.data, payload: payload.data } as E;
}

function summarize(issues: readonly DecodeIssue[]): string {
  const first = issues[0];
  if (first === undefined) return "no details.";
  const where = first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `${where}${first.message}${more}.`;
}
