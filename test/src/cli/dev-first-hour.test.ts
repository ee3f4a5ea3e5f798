import { connect } from "@nats-io/transport-node";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { runTroupe, startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";
import { waitFor } from "../support/wait-for.js";

const keyedFactory = fileURLToPath(new URL("../fixtures/keyed-agent-factory.ts", import.meta.url));
const duplicateAgents = fileURLToPath(new URL("../fixtures/duplicate-agents.ts", import.meta.url));

const occurrences = (text: string, part: string) => text.split(part).length - 1;

// issue #13: what a first hour with `troupe dev` should not surprise with.
describe("troupe dev refuses to start, saying why once", () => {
  let home: string;
  let modules: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), `${testRunMarker()}cli-`));
    modules = await mkdtemp(join(tmpdir(), `${testRunMarker()}modules-`));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(modules, { recursive: true, force: true });
  });

  const dev = (args: string[], env: Record<string, string> = {}) =>
    runTroupe(
      [
        "dev",
        "--nats-port",
        "0",
        "--redis-port",
        "0",
        "--gateway-port",
        "0",
        "--hosts",
        "2",
        ...args,
      ],
      {
        home,
        env,
        timeoutMs: 90_000,
      },
    );

  it("a module that throws at import: its error once, exit 1, nothing started", async () => {
    const marker = `boom-${randomUUID()}`;
    const module = join(modules, "throws.mjs");
    await writeFile(module, `throw new Error(${JSON.stringify(marker)});\n`);
    const result = await dev(["--agent", module]);
    expect(result.code).toBe(1);
    expect(occurrences(result.stdout + result.stderr, marker)).toBe(1);
    expect(result.stderr).toContain(`error: Agent module ${module}: cannot be imported: ${marker}`);
    expect(result.stdout).not.toContain("nats-server");
  }, 60_000);

  it("a missing module and one that exports no agents: one error each, exit 1", async () => {
    const missing = join(modules, "missing.mjs");
    const absent = await dev(["--agent", missing]);
    expect(absent.code).toBe(1);
    expect(occurrences(absent.stdout + absent.stderr, `Agent module ${missing}`)).toBe(1);
    const empty = join(modules, "empty.mjs");
    await writeFile(empty, "export const notAnAgent = 1;\n");
    const nothing = await dev(["--agent", empty]);
    expect(nothing.code).toBe(1);
    const message = `Agent module ${empty}: exports neither "default" nor "agents" (found: notAnAgent)`;
    expect(occurrences(nothing.stdout + nothing.stderr, message)).toBe(1);
  }, 60_000);

  it("two agents with one name: the host's own error, once, before any server starts", async () => {
    const result = await dev(["--agent", duplicateAgents]);
    expect(result.code).toBe(1);
    const message =
      'Invalid agent "twin": name: two agents are named "twin"; names must be unique.';
    expect(occurrences(result.stdout + result.stderr, message)).toBe(1);
    expect(result.stdout).not.toContain("nats-server");
  }, 60_000);

  it("a missing provider key: the agent, the model and the variable, before any server starts", async () => {
    const result = await dev([], { TROUPE_MODEL: "openai:gpt-4.1-mini", OPENAI_API_KEY: "" });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: Agent "demo" uses the model "openai:gpt-4.1-mini", which needs OPENAI_API_KEY: ' +
        "set it (export OPENAI_API_KEY=…) and start again, or unset TROUPE_MODEL for the scripted demo model.\n",
    );
    expect(result.stdout).not.toContain("nats-server");
  }, 60_000);

  it("a factory module's missing key is found by its hosts and said once", async () => {
    const result = await dev(["--agent", keyedFactory], { ANTHROPIC_API_KEY: "" });
    expect(result.code).toBe(1);
    const message =
      'Agent "keyed" uses the model "anthropic:claude-sonnet-4-5", which needs ANTHROPIC_API_KEY';
    expect(occurrences(result.stdout + result.stderr, message)).toBe(1);
    expect(result.stderr).toContain(`error: ${message}`);
  }, 120_000);

  it("--json on dev, chat and stop is refused, naming the commands that take it", async () => {
    for (const args of [["dev"], ["chat", "s1"], ["stop"]]) {
      const result = await runTroupe([...args, "--json"], { home });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: troupe ${args[0]} does not take --json; these commands do: send, tail, .*deadletters`,
        ),
      );
    }
  }, 60_000);
});

describe("a running troupe dev", () => {
  let dev: TroupeDev;
  let stopped = false;
  beforeAll(async () => {
    dev = await startTroupeDev(["--hosts", "1"]);
  }, 120_000);
  afterAll(async () => {
    if (!stopped) await dev?.stop();
  }, 60_000);

  const troupe = (args: string[]) => runTroupe(args, { home: dev.home, timeoutMs: 60_000 });

  it("lists each agent with its model in the banner and the state file", async () => {
    expect(dev.output()).toContain("  agent  demo → model troupe.scripted:demo-agent\n");
    expect((await dev.state()).models).toEqual({ demo: "troupe.scripted:demo-agent" });
  });

  it("troupe deadletters lists a malformed message by its published subject, with --json and --since", async () => {
    const nats = await connect({ servers: (await dev.state()).natsUrl });
    type Letter = {
      code: string;
      subject: string;
      publicSubject: string;
      preview?: string;
      storedAtMs: number;
    };
    const listed = async (args: string[], subject: string): Promise<Letter[]> => {
      let letters: Letter[] = [];
      await waitFor(
        async () => {
          const result = await troupe(["deadletters", "--json", ...args]);
          letters = JSON.parse(result.stdout) as Letter[];
          return letters.some((letter) => letter.publicSubject === subject);
        },
        { timeoutMs: 30_000, description: `a dead letter of ${subject}` },
      );
      return letters;
    };
    try {
      const body = '{"type":"user.message","text":""}';
      nats.publish("troupe.session.dl-first.in", body);
      await nats.flush();
      const first = (await listed([], "troupe.session.dl-first.in")).find(
        (letter) => letter.publicSubject === "troupe.session.dl-first.in",
      )!;
      expect(first).toMatchObject({ code: "decode_failed:schema_invalid", preview: body });
      expect(first.subject).toMatch(/^_troupe\.inbox\.\d+\.session\.dl-first$/);
      const text = await troupe(["deadletters"]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /decode_failed:schema_invalid\s+troupe\.session\.dl-first\.in\s+\{"type":"user\.message","text":""\}/,
      );
      expect(text.stdout).not.toContain("_troupe.inbox");

      // A second one, stored later: --since the first's time (+1 ms) lists only it.
      await waitFor(() => Date.now() > first.storedAtMs + 5, {
        timeoutMs: 1_000,
        description: "a later ms",
      });
      nats.publish("troupe.session.dl-second.in", '{"type":"user.message"}');
      await nats.flush();
      await listed([], "troupe.session.dl-second.in");
      const since = new Date(first.storedAtMs + 1).toISOString();
      const later = await listed(["--since", since], "troupe.session.dl-second.in");
      expect(later.map((letter) => letter.publicSubject)).toEqual(["troupe.session.dl-second.in"]);
      const recent = await listed(["--since", "1h"], "troupe.session.dl-second.in");
      expect(recent.map((letter) => letter.publicSubject)).toEqual([
        "troupe.session.dl-second.in",
        "troupe.session.dl-first.in",
      ]);
      const bad = await troupe(["deadletters", "--since", "soon"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("expected a duration (90s, 10m, 2h, 1d) or a time");
    } finally {
      await nats.close();
    }
    const status = await troupe(["status"]);
    expect(status.stdout).toMatch(/dead letters\s+2 — troupe deadletters lists them\n/);
  }, 90_000);

  it("troupe stop stops it as Ctrl-C does", async () => {
    const pid = (await dev.state()).pid;
    const result = await troupe(["stop"]);
    expect(result.stdout).toBe(`stopped troupe dev (pid ${pid})\n`);
    expect(result.code).toBe(0);
    expect(dev.output()).toContain("✔ stopped");
    stopped = true;
    expect(await dev.stop()).toBe(0);
    const again = await runTroupe(["stop"], { home: join(tmpdir(), `${testRunMarker()}none`) });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no troupe dev is running for");
  }, 90_000);
});
