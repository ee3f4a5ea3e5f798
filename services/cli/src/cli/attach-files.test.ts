import { describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TroupeClient } from "@troupe/client";
import { parseAttachSpec, uploadAttachments } from "./attach-files.js";
import { chatCommand } from "./commands/chat-command.js";
import { sendCommand } from "./commands/send-command.js";

describe("--attach values", () => {
  it("infers the media type from the extension, names the attachment after the file", () => {
    expect(parseAttachSpec("./shots/Cat.PNG")).toEqual({
      path: "./shots/Cat.PNG",
      mediaType: "image/png",
      name: "Cat.PNG",
    });
    expect(parseAttachSpec("report.pdf").mediaType).toBe("application/pdf");
  });

  it("takes a media type written before the path", () => {
    expect(parseAttachSpec("image/jpeg:/tmp/frame")).toEqual({
      path: "/tmp/frame",
      mediaType: "image/jpeg",
      name: "frame",
    });
  });

  it("refuses a file whose media type it cannot tell, saying how to give it", () => {
    expect(() => parseAttachSpec("data.bin")).toThrow(/--attach image\/png:data\.bin/u);
  });

  it("reads a media type in any case as lowercase", () => {
    expect(parseAttachSpec("IMAGE/PNG:shot").mediaType).toBe("image/png");
  });

  it("refuses an option taken for the file (--attach --wait)", () => {
    expect(() => parseAttachSpec("--wait")).toThrow(
      '--attach needs a file, got "--wait"; write ./--wait for a file whose name starts with -',
    );
  });

  it("says which file is missing or a folder, before uploading anything", async () => {
    const folder = await mkdtemp(join(tmpdir(), "attach-"));
    let uploads = 0;
    const client = {
      uploadMedia: () => {
        uploads += 1;
        return Promise.reject(new Error("not reached"));
      },
    } as unknown as TroupeClient;
    try {
      await expect(uploadAttachments(client, [join(folder, "gone.png")])).rejects.toThrow(
        `--attach ${join(folder, "gone.png")}: no such file`,
      );
      await expect(uploadAttachments(client, [`image/png:${folder}`])).rejects.toThrow(
        `--attach ${folder}: is a folder, not a file`,
      );
      expect(uploads).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("troupe send and troupe chat take --attach repeatedly, in order, with the same option", () => {
    const argv = ["--attach", "cat.png", "--agent", "reader", "--attach", "text/plain:notes"];
    const send = sendCommand();
    send.parseOptions(argv);
    const chat = chatCommand();
    chat.parseOptions(argv);
    expect(send.opts().attach).toEqual(["cat.png", "text/plain:notes"]);
    expect(chat.opts().attach).toEqual(["cat.png", "text/plain:notes"]);
    expect(chat.opts().agent).toBe("reader");
    const [sendHelp, chatHelp] = [send, chat].map(
      (command) => command.options.find((option) => option.long === "--attach")?.description,
    );
    expect(chatHelp).toContain("to the first message");
    expect(sendHelp).toBe(chatHelp?.replace("the first message", "the message"));
  });

  it("troupe chat without --attach has no attachments", () => {
    const chat = chatCommand();
    chat.parseOptions(["--agent", "reader"]);
    expect(chat.opts().attach).toBeUndefined();
  });
});
