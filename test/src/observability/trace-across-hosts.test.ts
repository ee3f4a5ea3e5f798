import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { parseReadyLine } from "@troupe/host";
import { TroupeClient } from "@troupe/client";
import { ATTRIBUTES, SPAN_NAMES } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";
import { testRunMarker } from "../harness/test-run-marker.js";
import {
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from "../support/otlp-receiver.js";
import {
  startTroupeServerProcess,
  type TroupeServerProcess,
} from "../support/troupe-server-process.js";
import { waitFor } from "../support/wait-for.js";

const AGENT_MODULE = "./test/src/fixtures/traced-agent.ts";
/** OTLP span kinds. */
const KIND = { internal: 1, producer: 4, consumer: 5 } as const;

/** The spans every turn with a tool call has, at least. */
const TURN_SPANS = [
  SPAN_NAMES.send("session"),
  SPAN_NAMES.process("session"),
  SPAN_NAMES.process("run"),
  SPAN_NAMES.process("tool"),
  SPAN_NAMES.effect("model.call"),
  SPAN_NAMES.effect("tool.execute"),
  SPAN_NAMES.chat("demo"),
  SPAN_NAMES.executeTool("slow_lookup"),
  SPAN_NAMES.publishOutbox,
];

/**
 * Issue #18, must show: two `troupe host` processes export OTLP to a test
 * receiver, the client in this process traces in memory; one turn with a
 * tool call is one connected trace across the client and both hosts, and
 * after a SIGKILL mid-turn the survivor continues the same trace.
 */
describe("one trace per turn across the client and two host processes (issue #18)", () => {
  let servers: TestServers;
  let receiver: OtlpReceiver;
  let home: string;
  let hosts: TroupeServerProcess[] = [];
  let client: TroupeClient;
  const clientSpans = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(clientSpans)],
  });

  /** Every span of `traceId`: the client's (in memory) and the hosts' (received). */
  const spansOf = (traceId: string): ReceivedSpan[] => [
    ...clientSpans
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === traceId)
      .map((span) => ({
        traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId ?? "",
        name: span.name,
        kind: span.kind + 1, // API enum → OTLP enum
        attributes: span.attributes,
        statusCode: span.status.code,
        resource: { "service.name": "test-client", "process.pid": process.pid },
      })),
    ...receiver.spans().filter((span) => span.traceId === traceId),
  ];
  /** Spans whose parent is not in the trace (the client's root excepted). */
  const orphans = (spans: readonly ReceivedSpan[]) => {
    const ids = new Set(spans.map((span) => span.spanId));
    return spans.filter((span) => span.parentSpanId !== "" && !ids.has(span.parentSpanId));
  };
  const hostPids = (spans: readonly ReceivedSpan[]) =>
    new Set(
      spans
        .filter((span) => span.resource["service.name"] === "troupe-host")
        .map((span) => span.resource["process.pid"]),
    );
  const sendSpanOf = (sessionId: string) =>
    clientSpans
      .getFinishedSpans()
      .find(
        (span) =>
          span.name === SPAN_NAMES.send("session") &&
          span.attributes[ATTRIBUTES.actorId] === sessionId,
      );

  beforeAll(async () => {
    const contextManager = new AsyncLocalStorageContextManager();
    contextManager.enable();
    context.setGlobalContextManager(contextManager);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    [servers, receiver, home] = await Promise.all([
      startTestServers(),
      startOtlpReceiver(),
      mkdtemp(join(tmpdir(), `${testRunMarker()}trace-`)),
    ]);
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
    };
    hosts = await Promise.all(
      [1, 2].map((n) =>
        startTroupeServerProcess(
          home,
          [
            "host",
            ...["--nats", servers.natsUrl, "--redis", servers.redisUrl],
            ...["--agent", AGENT_MODULE, "--host-id", `trace-host-${n}`, "--json"],
          ],
          {
            ready: (stdout) =>
              stdout.split("\n").some((line) => parseReadyLine(line) !== undefined),
            name: `troupe host ${n}`,
            env,
          },
        ),
      ),
    );
    client = await TroupeClient.connect({ natsUrl: servers.natsUrl });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all(hosts.map((host) => host.kill()));
    await receiver?.close();
    await servers?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it("a turn with a tool call is one connected trace across the client and both hosts, with the expected spans and attributes", async () => {
    // Actors spread over the two hosts by shard; a turn's session, run and
    // tool actor may all land on one host: turns on fresh sessions until one
    // crosses both (each does with probability 3/4).
    let found: { traceId: string; sessionId: string } | undefined;
    for (let attempt = 1; attempt <= 8 && found === undefined; attempt++) {
      const sessionId = `trace-${attempt}`;
      const outcome = await client.sendAndWait(
        sessionId,
        { text: '/tool slow_lookup {"delayMs":0}', agent: "tracer" },
        { timeoutMs: 20_000 },
      );
      expect(outcome.status).toBe("completed");
      const traceId = sendSpanOf(sessionId)?.spanContext().traceId;
      expect(traceId).toMatch(/^[\da-f]{32}$/);
      const complete = (spans: readonly ReceivedSpan[]) =>
        TURN_SPANS.every((name) => spans.some((span) => span.name === name)) &&
        // both model calls: the one asking for the tool and the one answering
        spans.filter((span) => span.name === SPAN_NAMES.chat("demo")).length >= 2 &&
        orphans(spans).length === 0;
      await waitFor(() => complete(spansOf(traceId!)), {
        timeoutMs: 15_000,
        description: `the spans of turn ${attempt}, connected`,
      });
      if (hostPids(spansOf(traceId!)).size === 2) found = { traceId: traceId!, sessionId };
    }
    expect(found).toBeDefined();
    const spans = spansOf(found!.traceId);
    expect(orphans(spans)).toEqual([]);
    expect(spans.filter((span) => span.parentSpanId === "").map((span) => span.name)).toEqual([
      SPAN_NAMES.send("session"),
    ]);
    expect(hostPids(spans).size).toBe(2);
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const send = byName(SPAN_NAMES.send("session"))[0]!;
    expect(send.kind).toBe(KIND.producer);
    expect(send.attributes).toMatchObject({
      [ATTRIBUTES.messagingSystem]: "nats",
      [ATTRIBUTES.messagingOperationType]: "send",
      [ATTRIBUTES.messagingDestination]: `troupe.session.${found!.sessionId}.in`,
      [ATTRIBUTES.actorId]: found!.sessionId,
    });
    // The session's first step is the child of the client's send.
    const sessionSteps = byName(SPAN_NAMES.process("session"));
    expect(sessionSteps.some((span) => span.parentSpanId === send.spanId)).toBe(true);
    for (const step of [...sessionSteps, ...byName(SPAN_NAMES.process("run"))]) {
      expect(step.kind).toBe(KIND.consumer);
      expect(step.attributes).toMatchObject({
        [ATTRIBUTES.messagingSystem]: "nats",
        [ATTRIBUTES.messagingOperationType]: "process",
        [ATTRIBUTES.stepOutcome]: "committed",
      });
      expect(step.attributes[ATTRIBUTES.inboxSeq]).toEqual(expect.any(Number));
      expect(step.attributes[ATTRIBUTES.generation]).toEqual(expect.any(Number));
    }
    expect(
      byName(SPAN_NAMES.process("run")).map((span) => span.attributes[ATTRIBUTES.actorKind]),
    ).toContain("run");
    for (const name of [SPAN_NAMES.effect("model.call"), SPAN_NAMES.effect("tool.execute")]) {
      for (const effect of byName(name)) {
        expect(effect.kind).toBe(KIND.internal);
        expect(effect.attributes).toMatchObject({
          [ATTRIBUTES.effectName]: name.slice("effect ".length),
          [ATTRIBUTES.effectOutcome]: "completed",
        });
        // its parent is the step that asked for the effect
        const parent = spans.find((span) => span.spanId === effect.parentSpanId);
        expect(parent?.name.startsWith("process ")).toBe(true);
      }
    }
    // The run's step taking the model's answer is the child of the model call's effect span.
    const modelCalls = new Set(byName(SPAN_NAMES.effect("model.call")).map((span) => span.spanId));
    expect(
      byName(SPAN_NAMES.process("run")).some((span) => modelCalls.has(span.parentSpanId)),
    ).toBe(true);
    // The model calls (GenAI conventions), each the child of its effect span:
    // the first asks for the tool, the second answers.
    const chats = byName(SPAN_NAMES.chat("demo"));
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(modelCalls.has(chat.parentSpanId)).toBe(true);
      expect(chat.attributes).toMatchObject({
        [ATTRIBUTES.genAiOperation]: "chat",
        [ATTRIBUTES.genAiRequestModel]: "demo",
      });
      expect(chat.attributes[ATTRIBUTES.genAiInputTokens]).toBeGreaterThan(0);
      expect(chat.attributes[ATTRIBUTES.genAiOutputTokens]).toBeGreaterThan(0);
    }
    expect(chats.map((chat) => chat.attributes[ATTRIBUTES.genAiFinishReasons]).sort()).toEqual([
      ["stop"],
      ["tool-calls"],
    ]);
    // The tool call's execution, the child of the tool.execute effect span.
    const [execution] = byName(SPAN_NAMES.executeTool("slow_lookup"));
    const toolEffects = new Set(
      byName(SPAN_NAMES.effect("tool.execute")).map((span) => span.spanId),
    );
    expect(toolEffects.has(execution!.parentSpanId)).toBe(true);
    expect(execution!.attributes).toMatchObject({
      [ATTRIBUTES.genAiOperation]: "execute_tool",
      [ATTRIBUTES.genAiToolName]: "slow_lookup",
      [ATTRIBUTES.toolEffectClass]: "read",
      [ATTRIBUTES.toolOutcome]: "succeeded",
      [ATTRIBUTES.toolAttempt]: 1,
    });
    for (const publish of byName(SPAN_NAMES.publishOutbox)) {
      expect(publish.kind).toBe(KIND.producer);
      expect(publish.attributes[ATTRIBUTES.messagingBatchCount]).toBeGreaterThan(0);
    }
    process.stdout.write(`trace of one turn:\n${spanTree(spans)}\n`);
  }, 60_000);

  it("after a SIGKILL mid-turn the survivor's spans continue the same trace, connected", async () => {
    const sessionId = "trace-kill";
    const receipt = await client.send(sessionId, {
      text: '/tool slow_lookup {"delayMs":4000}',
      agent: "tracer",
    });
    const traceId = sendSpanOf(sessionId)!.spanContext().traceId;
    // The tool actor's step that started the slow tool: its host runs the tool.
    let toolStep: ReceivedSpan | undefined;
    await waitFor(
      () => {
        toolStep = spansOf(traceId).find(
          (span) =>
            span.name === SPAN_NAMES.process("tool") &&
            spansOf(traceId).every((other) => other.name !== SPAN_NAMES.effect("tool.execute")),
        );
        return toolStep !== undefined;
      },
      { timeoutMs: 20_000, description: "the tool actor's step, exported" },
    );
    const victimPid = toolStep!.resource["process.pid"];
    const victim = hosts.find((host) => host.child.pid === victimPid)!;
    expect(victim).toBeDefined();
    await victim.kill();
    const outcome = await client.waitForRun(
      sessionId,
      { clientMessageId: receipt.clientMessageId },
      { timeoutMs: 30_000 },
    );
    expect(outcome.status).toBe("completed");
    const survivorPid = hosts.find((host) => host !== victim)!.child.pid;
    const survivorSpans = () =>
      spansOf(traceId).filter((span) => span.resource["process.pid"] === survivorPid);
    await waitFor(
      () =>
        survivorSpans().some(
          (span) =>
            span.name === SPAN_NAMES.effect("tool.execute") &&
            span.attributes[ATTRIBUTES.effectOutcome] === "completed",
        ) && orphans(spansOf(traceId)).length === 0,
      { timeoutMs: 15_000, description: "the survivor's spans of the turn, connected" },
    );
    const spans = spansOf(traceId);
    expect(orphans(spans)).toEqual([]);
    expect(hostPids(spans)).toEqual(new Set([victimPid, survivorPid]));
    // The survivor re-ran the tool as the child of the victim's step that asked for it.
    const rerun = survivorSpans().find((span) => span.name === SPAN_NAMES.effect("tool.execute"))!;
    expect(rerun.parentSpanId).toBe(toolStep!.spanId);
    // ... and took the rest of the turn: the run's steps after the tool, on the survivor.
    expect(survivorSpans().some((span) => span.name === SPAN_NAMES.process("run"))).toBe(true);
    process.stdout.write(`trace of the turn across the SIGKILL:\n${spanTree(spans)}\n`);
  }, 60_000);
});

/** The spans as an indented tree, each with its process id, for the report. */
function spanTree(spans: readonly ReceivedSpan[]): string {
  const lines: string[] = [];
  const visit = (parent: string, depth: number) => {
    for (const span of spans.filter((candidate) => candidate.parentSpanId === parent)) {
      lines.push(`${"  ".repeat(depth)}${span.name} [pid ${String(span.resource["process.pid"])}]`);
      visit(span.spanId, depth + 1);
    }
  };
  visit("", 0);
  return lines.join("\n");
}
