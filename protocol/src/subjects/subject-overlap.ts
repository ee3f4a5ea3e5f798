/**
 * Whether some literal subject could match both `left` and `right` (each may hold
 * `*` and `>` wildcards). JetStream refuses a stream whose subjects collide with
 * another stream's in this sense (nats-server's `SubjectsCollide`).
 *
 * @param left - a subject or pattern, e.g. `"troupe.*.*.events.>"`.
 * @param right - a subject or pattern, e.g. `"troupe.session.*.events.run.delta"`.
 * @returns `true` when the two can match a common subject (here: `true`).
 */
export function subjectsCollide(left: string, right: string): boolean {
  const a = left.split(".");
  const b = right.split(".");
  for (let index = 0; ; index += 1) {
    const x = a[index];
    const y = b[index];
    if (x === undefined || y === undefined) return x === y;
    // ">" needs at least one token on the other side; both sides have one here.
    if (x === ">" || y === ">") return true;
    if (x !== "*" && y !== "*" && x !== y) return false;
  }
}

/**
 * Whether `pattern` matches every subject `other` matches (`other` is redundant
 * next to `pattern` in one stream's subject list).
 *
 * @param pattern - a subject or pattern, e.g. `"troupe.counter.*.events.>"`.
 * @param other - a subject or pattern, e.g. `"troupe.counter.c1.events.x"`.
 * @returns `true` when `pattern` covers `other` (here: `true`; the reverse: `false`).
 */
export function subjectCovers(pattern: string, other: string): boolean {
  const a = pattern.split(".");
  const b = other.split(".");
  for (let index = 0; ; index += 1) {
    const x = a[index];
    const y = b[index];
    if (x === undefined || y === undefined) return x === y;
    if (x === ">") return true;
    if (y === ">") return false;
    if (x === "*") continue;
    if (y === "*" || x !== y) return false;
  }
}
