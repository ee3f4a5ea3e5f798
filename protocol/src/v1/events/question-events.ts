import { z } from "zod";
import { identifierSchema } from "../field-schemas.js";

/**
 * `question.asked` — the agent asks the user something and waits for
 * `question.answer`.
 *
 * Shape: `{ questionId: string, runId: string, text: string, choices?: string[], sessionId?: string }`.
 * `sessionId` is the session that owns the question (a subagent's `sub-…`
 * session for a subagent's question); pass it back in `question.answer`.
 */
export const questionAskedSchema = z.object({
  questionId: identifierSchema,
  runId: identifierSchema,
  text: z.string(),
  choices: z.array(z.string()).optional(),
  sessionId: identifierSchema.optional(),
});
/** Payload of `question.asked`. */
export type QuestionAsked = z.infer<typeof questionAskedSchema>;

/**
 * `question.answered` — the session took an answer to a question.
 *
 * Shape: `{ questionId: string, text: string, runId?: string }`.
 */
export const questionAnsweredSchema = z.object({
  questionId: identifierSchema,
  text: z.string(),
  runId: identifierSchema.optional(),
});
/** Payload of `question.answered`. */
export type QuestionAnswered = z.infer<typeof questionAnsweredSchema>;
