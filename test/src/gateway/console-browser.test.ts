/**
 * The web console in a real browser (issue #16, Must show #2): Debian's
 * Chromium driven by playwright-core opens the console a `troupe dev` serves,
 * sends the demo agent a message whose tool call needs an approval, approves
 * it from the fleet-wide approvals inbox (a second tab), and sees the answer
 * in the chat and the statecharts of the run and the tool call move on. A
 * screenshot is kept under test/artifacts/ (docs/images/console.png is a copy).
 *
 * Skipped, saying so, only where no Chromium is installed (set
 * TROUPE_CHROMIUM to its path when it is not /usr/bin/chromium).
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
const chromiumPath = process.env.TROUPE_CHROMIUM ?? "/usr/bin/chromium";
const hasChromium = existsSync(chromiumPath);
if (!hasChromium) {
  process.stderr.write(
    `console-browser.test.ts: SKIPPED — no Chromium at ${chromiumPath} (apt-get install chromium, or set TROUPE_CHROMIUM).\n`,
  );
}

/** Active state ids of the statechart of the actor with this role (the first one). */
async function activeStates(page: Page, role: string): Promise<string[]> {
  // Runs in the page: DOM elements, typed by what is used (test/ has no DOM lib).
  type Element = { getAttribute(name: string): string | null };
  return await page
    .locator(`[data-testid="actor"][data-role="${role}"] .state[data-active="true"]`)
    .evaluateAll((nodes: Element[]) =>
      nodes.map((node) => node.getAttribute("data-state-id") ?? ""),
    );
}

describe.skipIf(!hasChromium)("the web console in Chromium (issue #16)", () => {
  let dev: TroupeDev;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    dev = await startTroupeDev(["--hosts", "1"]);
    url = (await dev.state()).gatewayUrl!;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  });

  it("sends a message, approves its tool call from the approvals inbox, shows the answer and the statecharts moving on", async () => {
    const sessionId = `browser-${Date.now().toString(36)}`;
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const chat = await context.newPage();
    const pageErrors: string[] = [];
    chat.on("pageerror", (error) => pageErrors.push(error.message));

    // The sessions page, then a new session's page by its id.
    await chat.goto(`${url}/`);
    await chat.getByTestId("new-session-id").fill(sessionId);
    await chat.getByTestId("open-session").click();
    await expect.poll(() => chat.getByTestId("session-id").textContent()).toBe(sessionId);

    await chat.getByTestId("chat-input").fill("email ada@example.com about the launch on Friday");
    await chat.getByTestId("chat-send").click();

    // The tool call waits: its part in the chat, its actor's chart in awaitingApproval.
    await chat
      .locator('[data-testid="tool-part"][data-state="approval-requested"]')
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(() => activeStates(chat, "tool"), { timeout: 30_000 })
      .toEqual(["tool.awaitingApproval"]);
    await expect
      .poll(() => activeStates(chat, "run"), { timeout: 30_000 })
      .toEqual(["run.runningTools"]);

    // The approvals inbox in a second tab lists it with its arguments; approve it there.
    const inbox = await context.newPage();
    await inbox.goto(`${url}/#/approvals`);
    const card = inbox.getByTestId("approval").filter({ hasText: sessionId });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain("send_email");
    expect(await card.textContent()).toContain("ada@example.com");
    await card.getByRole("button", { name: "Approve" }).click();
    await card.waitFor({ state: "detached", timeout: 30_000 });

    // The chat shows the answer; the tool call's chart is done, the run's back to idle.
    await chat
      .locator('[data-testid="message-assistant"]')
      .filter({ hasText: "Sent the email to ada@example.com." })
      .waitFor({ timeout: 30_000 });
    await expect.poll(() => activeStates(chat, "tool"), { timeout: 30_000 }).toEqual(["tool.done"]);
    await expect.poll(() => activeStates(chat, "run"), { timeout: 30_000 }).toEqual(["run.idle"]);
    await expect
      .poll(() => chat.getByTestId("timeline").textContent(), { timeout: 30_000 })
      .toContain("tool.approval_settled");
    expect(await chat.locator('[data-testid="tool-part"]').first().getAttribute("data-state")).toBe(
      "output-available",
    );
    expect(pageErrors).toEqual([]);

    const artifacts = join(repositoryRoot, "test", "artifacts");
    await mkdir(artifacts, { recursive: true });
    await chat.screenshot({ path: join(artifacts, "console-browser.png"), fullPage: true });
    await context.close();
  }, 120_000);
});
