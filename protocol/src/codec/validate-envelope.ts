import type { z } from "zod";
import { DecodeError, type DecodeIssue } from "@troupe/addressing";
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
  /**
   * The candidate came from a plain body (`{"type":…, …fields}`): payload
   * problems are then worded with the body's top-level field names.
   */
  readonly plainBody?: boolean | undefined;
}

/**
 * Checks an envelope candidate: first the envelope fields, then that the type is
 * in the registry, then the payload against the type's schema.
 *
 * @param candidate - the decoded body, with defaults applied.
 * @param rules - schemas and context.
 * @returns the envelope, its payload replaced by the schema's output (unknown
 *   fields refused by strict schemas, dropped by the others).
 * @throws {@link DecodeError} with reason `schema_invalid` (and zod issues, paths
 *   from the envelope root; an unknown field is an `unrecognized_keys` issue whose
 *   `keys` name it, and the message names it too) or `unknown_type`.
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
  const payload = validatePayload(rules.schemas[type] as z.ZodType, envelope.data.payload, {
    type,
    subject,
    plainBody: rules.plainBody === true,
    messageId: (envelope.data as { id?: unknown }).id,
  });
  return { ...envelope.data, payload } as E;
}

/**
 * Checks one payload against its type's schema.
 *
 * @param schema - the payload schema.
 * @param payload - the candidate payload.
 * @param context - `type` (for the message), `subject`, `messageId` (the envelope's
 *   id, carried by the error when it is a string), and `plainBody` (word
 *   paths as top-level fields of a plain body).
 * @returns the schema's output.
 * @throws {@link DecodeError} with reason `schema_invalid`, zod issues with paths
 *   from the envelope root (`["payload", "text"]`).
 */
export function validatePayload(
  schema: z.ZodType,
  payload: unknown,
  context: {
    readonly type: string;
    readonly subject: string | undefined;
    readonly plainBody?: boolean;
    readonly messageId?: unknown;
  },
): unknown {
  const { type, subject } = context;
  let result: z.ZodSafeParseResult<unknown>;
  try {
    result = schema.safeParse(payload);
  } catch (error) {
    throw new DecodeError(`The ${type} payload schema threw while validating.`, {
      reason: "schema_invalid",
      subject,
      cause: error,
    });
  }
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue): DecodeIssue => ({
    ...issue,
    path: ["payload", ...issue.path],
  }));
  const message =
    context.plainBody === true
      ? `The ${type} body is invalid: ${summarize(issues, 1)}${plainBodyHint(issues, schema, type)}`
      : `The ${type} payload is invalid: ${summarize(issues)}`;
  throw new DecodeError(message, {
    reason: "schema_invalid",
    subject,
    issues,
    messageType: type,
    ...(typeof context.messageId === "string" ? { messageId: context.messageId } : {}),
  });
}

/** `a.b: message.` for the first issue; `skip` leading path segments are left out. */
function summarize(issues: readonly DecodeIssue[], skip = 0): string {
  const first = issues[0];
  if (first === undefined) return "no details.";
  const path = first.path.slice(skip).map(String);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  if (first.code === "unrecognized_keys") {
    const names = first.keys.map((key) => JSON.stringify(key)).join(", ");
    const noun = first.keys.length === 1 ? "field" : "fields";
    const where = path.length === 0 ? "" : ` in ${path.join(".")}`;
    return `unknown ${noun} ${names}${where}${more}.`;
  }
  const where = path.length === 0 ? "" : `${path.join(".")}: `;
  return `${where}${first.message.replace(/\.$/u, "")}${more}.`;
}

/**
 * For an unknown top-level field of a plain body: the fields the type takes, and
 * for `id` where a message id or an idempotency key goes.
 */
function plainBodyHint(issues: readonly DecodeIssue[], schema: z.ZodType, type: string): string {
  const unknown = issues.find(
    (issue) => issue.code === "unrecognized_keys" && issue.path.length === 1,
  );
  if (unknown === undefined || unknown.code !== "unrecognized_keys") return "";
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const fields = shape === undefined ? "" : Object.keys(shape).join(", ");
  let hint = ` A plain body holds "type" and the fields of ${type}${fields === "" ? "" : ` (${fields})`}`;
  if (unknown.keys.includes("id")) {
    hint +=
      shape !== undefined && Object.hasOwn(shape, "clientMessageId")
        ? '; for an idempotency key use "clientMessageId", for a message id the envelope form {"v":1,"id":…,"type":…,"payload":{…}}'
        : '; for a message id use the envelope form {"v":1,"id":…,"type":…,"payload":{…}}';
  }
  return `${hint}.`;
}
