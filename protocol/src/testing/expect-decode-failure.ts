import { expect } from "vitest";
import { DecodeError, type DecodeFailureReason } from "@troupe/addressing";

/**
 * Runs `action`, expects a `DecodeError` with `reason` and `subject`, and returns it.
 *
 * @param action - a decode call.
 * @param reason - the expected failure reason.
 * @param subject - the subject the error must carry.
 * @returns the error, for further checks.
 */
export function expectDecodeFailure(
  action: () => unknown,
  reason: DecodeFailureReason,
  subject: string | undefined,
): DecodeError {
  try {
    action();
  } catch (error) {
    expect(DecodeError.isInstance(error), String(error)).toBe(true);
    const decodeError = error as DecodeError;
    expect(decodeError.reason, decodeError.message).toBe(reason);
    expect(decodeError.subject).toBe(subject);
    return decodeError;
  }
  throw new Error(`expected a DecodeError (${reason})`);
}
