import { describe, expect, it } from "vitest";
import { InvalidAddressError } from "../errors/invalid-address-error.js";
import { ALERT_SUBJECTS, alertSubject } from "./alert-subject.js";

describe("alert subjects", () => {
  it("are _troupe.alert.<alert>.<kind>.<id>, under the wildcard ALERT_SUBJECTS", () => {
    expect(alertSubject("version", "session", "demo-1")).toBe(
      "_troupe.alert.version.session.demo-1",
    );
    expect(ALERT_SUBJECTS).toBe("_troupe.alert.>");
  });

  it("refuse an invalid kind or id", () => {
    expect(() => alertSubject("version", "session", "a.b")).toThrow(InvalidAddressError);
    expect(() => alertSubject("version", "", "x")).toThrow(InvalidAddressError);
  });
});
