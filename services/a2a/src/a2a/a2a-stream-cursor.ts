import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { STATE_HEADERS_KEY, type ServerCallContext } from "@a2a-js/sdk/server";
import {
  InvalidTaskStreamCursorError,
  parseTaskStreamCursor,
  type TaskStreamCursor,
} from "@troupe/client/tasks";

/**
 * Key of the cursor in the `metadata` of every `statusUpdate` and
 * `artifactUpdate` a Troupe A2A stream sends (docs/decisions/0056); its value
 * is the cursor text, `<eventSequence>.<deltaSequence>` (e.g. `"41.17"`) or
 * `<eventSequence>.<deltaSequence>.<part>`.
 */
export const A2A_CURSOR_METADATA_KEY = "troupe/cursor";

/**
 * The request header that carries the cursor to resume after: the SSE
 * reconnection header (https://html.spec.whatwg.org/multipage/server-sent-events.html#the-last-event-id-header).
 */
export const A2A_CURSOR_HEADER = "last-event-id";

/**
 * The cursor a `SubscribeToTask` (or 0.3 `tasks/resubscribe`) request resumes
 * after: its `Last-Event-ID` header, read from the SDK's call context (the raw
 * request headers under `STATE_HEADERS_KEY`). The SDK passes no request
 * metadata of `SubscribeToTask` on, so the header is the only place.
 *
 * @param context - the call context the SDK's transport gives the handler; may be absent (a direct call).
 * @returns the cursor, or `undefined` when the header is absent or empty.
 * @throws RequestMalformedError (JSON-RPC `-32602`) for a header that is not a cursor
 *   (see `parseTaskStreamCursor`), or sent twice.
 */
export function resumeCursorOf(
  context: ServerCallContext | undefined,
): TaskStreamCursor | undefined {
  const headers = context?.state.get(STATE_HEADERS_KEY) as
    Record<string, string | string[] | undefined> | undefined;
  if (headers === undefined) return undefined;
  const name = Object.keys(headers).find((key) => key.toLowerCase() === A2A_CURSOR_HEADER);
  const value = name === undefined ? undefined : headers[name];
  if (value === undefined || value === "") return undefined;
  if (Array.isArray(value)) {
    throw new RequestMalformedError("Send one Last-Event-ID header: the cursor to resume after.");
  }
  try {
    return parseTaskStreamCursor(value);
  } catch (error) {
    if (InvalidTaskStreamCursorError.isInstance(error)) {
      throw new RequestMalformedError(`Last-Event-ID: ${error.message}`);
    }
    throw error;
  }
}
