/**
 * Whether some literal subject could match both `left` and `right` (each may hold
 * `*` and `>` wildcards). JetStream refuses a stream whose subjects collide with
 * another stream's in this sense; this is our own statement of that rule for tests.
 *
 * @param left - a subject or pattern.
 * @param right - a subject or pattern.
 * @returns `true` when the two can match a common subject.
 */
export function subjectsCollide(left: string, right: string): boolean {
  const a = left.split(".");
  const b = right.split(".");
  for (let index = 0; ; index += 1) {
    const x = a[index];
    const y = b[index];
    if (x === undefined || y === undefined) return x === y;
    if (x === ">" || y === ">") {
      // ">" needs at least one token on the other side; both sides have one here.
      return true;
    }
    if (x !== "*" && y !== "*" && x !== y) return false;
  }
}
