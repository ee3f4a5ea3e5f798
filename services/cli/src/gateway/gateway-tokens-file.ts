import { readFile } from "node:fs/promises";
import type { TokenGrant } from "@troupe/gateway";
import { TroupeError } from "@troupe/protocol";
import { z } from "zod";

/** The shortest bearer token `troupe gateway` takes (`--token` or a tokens file): 16 characters. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * The tokens file of `troupe gateway --tokens-file` (docs/decisions/0028): a JSON array
 * of grants, each a bearer token and the session-id prefix it may reach
 * (`""` or absent: every session), with an optional name for logs.
 *
 * Shape: `[{ token: string (16+ chars), sessionPrefix?: string, name?: string }, …]`.
 */
export const gatewayTokensFileSchema = z
  .array(
    z
      .object({
        token: z
          .string()
          .min(MIN_TOKEN_LENGTH, `a token has at least ${MIN_TOKEN_LENGTH} characters`),
        sessionPrefix: z.string().optional(),
        name: z.string().min(1).optional(),
      })
      .strict(),
  )
  .min(1, "the file lists no token");

/**
 * Reads and checks a tokens file.
 *
 * @param path - the file.
 * @returns the grants, in file order.
 * @throws TroupeError `invalid_options` naming the file and what is wrong
 *   (unreadable, not JSON, or not {@link gatewayTokensFileSchema}); the
 *   message never contains a token.
 */
export async function readGatewayTokensFile(path: string): Promise<TokenGrant[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new TroupeError(
      "invalid_options",
      `Cannot read the gateway tokens file ${path}: ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TroupeError("invalid_options", `The gateway tokens file ${path} is not JSON.`);
  }
  const parsed = gatewayTokensFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "(file)"}: ${issue.message}`)
      .join("; ");
    throw new TroupeError(
      "invalid_options",
      `The gateway tokens file ${path} is not a list of { token, sessionPrefix?, name? }: ${issues}`,
    );
  }
  return parsed.data;
}
