import { isValidActorId, TroupeError } from "@troupe/protocol";

/**
 * The Troupe run behind a protocol task (an MCP task, an A2A task): the
 * session the message went to and the message's client message id, which the
 * session's stored events resolve to a run (`message.accepted`, `run.started`).
 * Nothing else is needed to find the task again, so a task outlives the process
 * that created it (docs/decisions/0025).
 *
 * Shape: `{ sessionId: string, clientMessageId: string }`, both 1 to 128 of
 * `[A-Za-z0-9_-]`.
 */
export interface RunTaskRef {
  readonly sessionId: string;
  readonly clientMessageId: string;
}

/** Separates the session id from the client message id in a task id; neither may contain it. */
const SEPARATOR = ".";

/**
 * A task id that names a run: `<sessionId>.<clientMessageId>`, e.g.
 * `mcp-4f2c.c-91ab` (docs/decisions/0025).
 *
 * @param ref - the session and client message id (valid actor ids).
 * @returns the task id.
 * @throws {@link InvalidTaskIdError} when either part breaks the id rules.
 */
export function runTaskId(ref: RunTaskRef): string {
  const parts: ReadonlyArray<readonly [string, string]> = [
    ["sessionId", ref.sessionId],
    ["clientMessageId", ref.clientMessageId],
  ];
  for (const [field, value] of parts) {
    if (!isValidActorId(value)) {
      throw new InvalidTaskIdError(
        `${field} ${JSON.stringify(value)} cannot be part of a task id: use 1 to 128 of A-Z, a-z, 0-9, "_" and "-".`,
        String(value),
      );
    }
  }
  return `${ref.sessionId}${SEPARATOR}${ref.clientMessageId}`;
}

/**
 * Reads a task id made by {@link runTaskId}.
 *
 * @param taskId - `<sessionId>.<clientMessageId>`.
 * @returns the session and client message id.
 * @throws {@link InvalidTaskIdError} when `taskId` is not of that form.
 */
export function parseRunTaskId(taskId: string): RunTaskRef {
  const parts = typeof taskId === "string" ? taskId.split(SEPARATOR) : [];
  const [sessionId, clientMessageId] = parts;
  if (
    parts.length !== 2 ||
    sessionId === undefined ||
    clientMessageId === undefined ||
    !isValidActorId(sessionId) ||
    !isValidActorId(clientMessageId)
  ) {
    throw new InvalidTaskIdError(
      `Unknown task id ${JSON.stringify(taskId)}: a Troupe task id is <sessionId>.<clientMessageId>, ` +
        'each 1 to 128 of A-Z, a-z, 0-9, "_" and "-".',
      String(taskId),
    );
  }
  return { sessionId, clientMessageId };
}

/**
 * A task id that does not name a Troupe run (see {@link parseRunTaskId}). Never
 * retryable. Code `invalid_address`: a task id is the address of a run.
 *
 * Shape: `TroupeError` plus `taskId` (the refused text).
 */
export class InvalidTaskIdError extends TroupeError {
  /** The refused task id. */
  readonly taskId: string;

  /**
   * @param message - what is wrong and what is allowed.
   * @param taskId - the refused text.
   */
  constructor(message: string, taskId: string) {
    super("invalid_address", message, { retryable: false, details: { taskId } });
    this.name = "InvalidTaskIdError";
    this.taskId = taskId;
  }

  /**
   * Whether `value` is an {@link InvalidTaskIdError} (by name, from any copy of the package).
   *
   * @param value - anything, typically a caught exception.
   */
  static override isInstance(value: unknown): value is InvalidTaskIdError {
    return TroupeError.isInstance(value) && value.name === "InvalidTaskIdError";
  }
}
