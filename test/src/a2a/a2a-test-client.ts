import { randomUUID } from "node:crypto";
import {
  Role,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { expect } from "vitest";

/** The bearer token the tests start `troupe a2a` with. */
export const TOKEN = "a2a-test-token";

/** The demo model's answer to `/slow` (actors/models/src/models/demo-script.ts). */
export const SLOW_ANSWER =
  "This answer streams slowly, one word at a time, so that there is time to cancel " +
  "the run or to stop the host while the model call is still streaming its text.";

/** An official SDK client of the agent card at `baseUrl`, sending `token` as a bearer token when given. */
export async function a2aClient(
  baseUrl: string,
  token: string | undefined = TOKEN,
): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return await new ClientFactory(options).createFromUrl(baseUrl);
}

/** A user message in the SDK's v1.0 shape. */
export function userMessage(
  text: string,
  ids: { contextId?: string; taskId?: string } = {},
): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: "text", value: text },
        metadata: {},
        filename: "",
        mediaType: "text/plain",
      },
    ],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A `SendMessage` request for `message`. */
export function request(message: Message, returnImmediately = false): SendMessageRequest {
  return {
    tenant: "",
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately,
    },
    metadata: {},
  };
}

export function asTask(result: Message | Task): Task {
  expect("status" in result, "a task, not a message").toBe(true);
  return result as Task;
}

/** The text of a task's answer artifact. */
export function answerOf(task: Task): string | undefined {
  const part = task.artifacts.find((artifact) => artifact.artifactId === "answer")?.parts[0];
  return part?.content?.$case === "text" ? part.content.value : undefined;
}

/** The answer a stream's artifact chunks add up to (a chunk with `append: false` replaces it). */
export function streamedText(events: readonly StreamResponse[]): string {
  let text = "";
  for (const event of events) {
    if (event.payload?.$case !== "artifactUpdate") continue;
    const content = event.payload.value.artifact?.parts[0]?.content;
    const chunk = content?.$case === "text" ? content.value : "";
    text = event.payload.value.append ? text + chunk : chunk;
  }
  return text;
}
