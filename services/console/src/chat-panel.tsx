import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from "ai";
import { useEffect, useMemo, useState } from "react";
import { api, authHeaders } from "./api.js";
import { ErrorLine, Json } from "./small-views.js";

/** Message metadata the gateway puts on the `start` chunk. */
interface RunMetadata {
  sessionId?: string;
  runId?: string;
}

type ConsoleMessage = UIMessage<RunMetadata>;
type Part = ConsoleMessage["parts"][number];

/**
 * The chat of one session: `useChat` against the gateway's `/api/chat` (chat
 * id = session id), resuming a run in progress on load, sending approval
 * responses back by itself (also for approvals settled elsewhere, e.g. in
 * the approvals inbox). Stop cancels the run by id (POST
 * /v1/sessions/:id/cancel) — closing the page never does.
 */
export function ChatPanel({
  sessionId,
  settled,
}: {
  sessionId: string;
  /** Decisions of approvals settled elsewhere (`tool.approval_settled`), by tool call id. */
  settled: Readonly<Record<string, string>>;
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ConsoleMessage>({ api: "/api/chat", headers: () => authHeaders() }),
    [],
  );
  const chat = useChat<ConsoleMessage>({
    id: sessionId,
    transport,
    resume: true,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  // An approval settled elsewhere (the approvals inbox, the CLI) is answered
  // here with the same decision: the SDK's approval flow then POSTs it (the
  // session keeps the first settlement) and streams the rest of the run.
  useEffect(() => {
    if (chat.status !== "ready") return;
    const last = chat.messages.at(-1);
    if (last?.role !== "assistant") return;
    for (const part of last.parts) {
      if (!("approval" in part) || part.state !== "approval-requested") continue;
      const decision = settled[part.toolCallId];
      if (decision === undefined) continue;
      void chat.addToolApprovalResponse({
        id: part.approval.id,
        approved: decision === "approved",
        ...(decision === "approved" ? {} : { reason: `settled elsewhere: ${decision}` }),
      });
    }
  }, [chat, settled]);
  const [input, setInput] = useState("");
  const [failure, setFailure] = useState<Error>();
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const runId = [...chat.messages].reverse().find((message) => message.metadata?.runId)
    ?.metadata?.runId;
  const stop = async () => {
    try {
      await api(`/v1/sessions/${encodeURIComponent(sessionId)}/cancel`, {
        method: "POST",
        body: { ...(runId === undefined ? {} : { runId }), reason: "stopped in the console" },
      });
      setFailure(undefined);
    } catch (error) {
      setFailure(error as Error);
    }
  };
  return (
    <div className="chat" data-testid="chat">
      <div className="messages">
        {chat.messages.length === 0 && (
          <p className="muted">
            Say <code>help</code> to the demo agent, or{" "}
            <code>email ada@example.com about the launch</code> for a tool call that needs your
            approval.
          </p>
        )}
        {chat.messages.map((message) => (
          <div
            key={message.id}
            className={`message ${message.role}`}
            data-testid={`message-${message.role}`}
          >
            {message.parts.map((part, index) => (
              <PartView
                key={index}
                part={part}
                sessionId={sessionId}
                onApproval={(id, approved) =>
                  void chat.addToolApprovalResponse({
                    id,
                    approved,
                    ...(approved ? {} : { reason: "denied in the console" }),
                  })
                }
              />
            ))}
          </div>
        ))}
      </div>
      <ErrorLine error={chat.error ?? failure} />
      <form
        className="row composer"
        onSubmit={(event) => {
          event.preventDefault();
          const text = input.trim();
          if (text === "") return;
          setInput("");
          void chat.sendMessage({ text });
        }}
      >
        <input
          data-testid="chat-input"
          placeholder="Message"
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
        <button type="submit" data-testid="chat-send">
          Send
        </button>
        <button
          type="button"
          className="deny"
          disabled={!busy}
          onClick={() => void stop()}
          data-testid="chat-stop"
        >
          Stop
        </button>
      </form>
      <p className="muted small">
        status: {chat.status}
        {runId === undefined ? "" : ` · run ${runId}`}
      </p>
    </div>
  );
}

function PartView({
  part,
  sessionId,
  onApproval,
}: {
  part: Part;
  sessionId: string;
  onApproval: (approvalId: string, approved: boolean) => void;
}) {
  if (part.type === "text") return <p className="text">{part.text}</p>;
  if (part.type === "reasoning") return <p className="reasoning">{part.text}</p>;
  if (part.type === "step-start") return null;
  if (part.type === "dynamic-tool" || part.type.startsWith("tool-")) {
    const tool = part as Extract<Part, { type: "dynamic-tool" }>;
    const name = part.type === "dynamic-tool" ? tool.toolName : part.type.slice("tool-".length);
    return (
      <div className="tool" data-testid="tool-part" data-state={tool.state}>
        <div className="row spread">
          <b>{name}</b>
          <span className="pill">{tool.state}</span>
        </div>
        {tool.input !== undefined && <Json value={tool.input} />}
        {tool.state === "approval-requested" && (
          <div className="row">
            <button className="approve" onClick={() => onApproval(tool.approval.id, true)}>
              Approve
            </button>
            <button className="deny" onClick={() => onApproval(tool.approval.id, false)}>
              Deny
            </button>
          </div>
        )}
        {tool.state === "output-available" && <Json value={tool.output} />}
        {tool.state === "output-error" && <p className="error">{tool.errorText}</p>}
        {tool.state === "output-denied" && <p className="muted">denied</p>}
      </div>
    );
  }
  if (part.type === "data-question" && isQuestion(part.data)) {
    return <QuestionView sessionId={sessionId} question={part.data} />;
  }
  if (part.type === "data-subagent") {
    const data = part.data as { agent?: string; task?: string; status?: string; text?: string };
    return (
      <div className="tool" data-testid="subagent-part">
        <div className="row spread">
          <b>subagent {data.agent ?? ""}</b>
          <span className="pill">{data.status}</span>
        </div>
        <p className="muted small">{data.task}</p>
        <p className="text">{data.text}</p>
      </div>
    );
  }
  if (part.type === "data-tool-progress") {
    const data = part.data as {
      tool?: string;
      progress?: number;
      total?: number;
      message?: string;
    };
    return (
      <p className="muted small">
        {data.tool}: {data.progress}
        {data.total === undefined ? "" : ` / ${data.total}`} {data.message ?? ""}
      </p>
    );
  }
  if (part.type.startsWith("data-")) return <Json value={(part as { data?: unknown }).data} />;
  return null;
}

/** The `data-question` part of an `ask_user` call (the gateway's shape). */
interface Question {
  questionId: string;
  text: string;
  subagentSessionId?: string;
  choices?: string[];
  status?: "open" | "answered";
  answer?: string;
}

function isQuestion(data: unknown): data is Question {
  return (
    typeof data === "object" &&
    data !== null &&
    typeof (data as Question).questionId === "string" &&
    typeof (data as Question).text === "string"
  );
}

/** An `ask_user` question, answered through POST /v1/sessions/:id/questions/:questionId. */
function QuestionView({ sessionId, question }: { sessionId: string; question: Question }) {
  const [answer, setAnswer] = useState("");
  const [sent, setSent] = useState<string>();
  const [failure, setFailure] = useState<Error>();
  const send = (text: string) => {
    void api(
      `/v1/sessions/${encodeURIComponent(sessionId)}/questions/${encodeURIComponent(question.questionId)}`,
      {
        method: "POST",
        body: {
          text,
          ...(question.subagentSessionId === undefined
            ? {}
            : { subagentSessionId: question.subagentSessionId }),
        },
      },
    ).then(
      () => setSent(text),
      (error: Error) => setFailure(error),
    );
  };
  const answered = question.status === "answered" ? question.answer : sent;
  return (
    <div className="question" data-testid="question">
      <b>{question.text}</b>
      {answered !== undefined ? (
        <p className="muted">answered: {answered}</p>
      ) : (
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            if (answer.trim() !== "") send(answer.trim());
          }}
        >
          {(question.choices ?? []).map((choice) => (
            <button key={choice} type="button" onClick={() => send(choice)}>
              {choice}
            </button>
          ))}
          <input
            value={answer}
            onChange={(event) => setAnswer(event.target.value)}
            placeholder="Answer"
          />
          <button type="submit">Answer</button>
        </form>
      )}
      <ErrorLine error={failure} />
    </div>
  );
}
