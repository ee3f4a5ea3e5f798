// How the console talks to its gateway: same origin, an optional bearer token
// kept in localStorage (gateways with tokens), JSON errors shown as
// their message.

const TOKEN_KEY = "troupe.console.token";

/** The bearer token the console sends, or "" for none. */
export function readToken(): string {
  return localStorage.getItem(TOKEN_KEY) ?? "";
}

/** Stores (or, with "", forgets) the bearer token. */
export function writeToken(token: string): void {
  if (token === "") localStorage.removeItem(TOKEN_KEY);
  else localStorage.setItem(TOKEN_KEY, token);
}

/** `Authorization` header for the stored token, if any. */
export function authHeaders(): Record<string, string> {
  const token = readToken();
  return token === "" ? {} : { Authorization: `Bearer ${token}` };
}

/** An error answer of the gateway: `{ status, code, message }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Calls the gateway and parses its JSON answer.
 *
 * @throws ApiError with the gateway's code and message on a non-2xx answer.
 */
export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? "GET",
    headers: {
      ...authHeaders(),
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  const data: unknown = text === "" ? undefined : JSON.parse(text);
  if (!response.ok) {
    const body = (data ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, body.code ?? "error", body.message ?? response.statusText);
  }
  return data as T;
}

/** A URL for EventSource (which cannot send headers): the token as `access_token`. */
export function streamUrl(path: string): string {
  const token = readToken();
  if (token === "") return path;
  return `${path}${path.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(token)}`;
}

/** A new session id the protocol accepts (letters, digits, "-"). */
export function newSessionId(): string {
  return `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}
