import { describe, expect, it } from "vitest";
import { renderRestateServerConfig } from "./restate-server-config.js";

const options = { baseDir: "/tmp/r x", ingressPort: 40001, adminPort: 40002, fabricPort: 40003 };

describe("restate-server configuration", () => {
  it("binds ingress, admin and fabric to 127.0.0.1 on their own ports, TCP only", () => {
    const lines = renderRestateServerConfig(options).split("\n");
    const section = (name: string) => lines.slice(lines.indexOf(`[${name}]`) + 1);
    expect(lines).toContain('bind-address = "127.0.0.1:40003"');
    expect(lines).toContain('listen-mode = "tcp"');
    expect(section("admin")[0]).toBe('bind-address = "127.0.0.1:40002"');
    expect(section("ingress")[0]).toBe('bind-address = "127.0.0.1:40001"');
    expect(lines.filter((line) => line.startsWith("bind-address"))).toHaveLength(3);
  });

  it("keeps its data in the given folder and sends no telemetry", () => {
    const lines = renderRestateServerConfig(options).split("\n");
    expect(lines).toContain('base-dir = "/tmp/r x"');
    expect(lines).toContain("disable-telemetry = true");
    // Durability stays the server's default: nothing about fsync or the WAL is set.
    expect(lines.some((line) => /fsync|wal/i.test(line))).toBe(false);
  });

  it("refuses ports outside 1–65535 and a port given twice", () => {
    expect(() => renderRestateServerConfig({ ...options, adminPort: 0 })).toThrow(RangeError);
    expect(() => renderRestateServerConfig({ ...options, adminPort: 70_000 })).toThrow(RangeError);
    expect(() => renderRestateServerConfig({ ...options, fabricPort: 40001 })).toThrow(
      "ports must differ",
    );
  });
});
