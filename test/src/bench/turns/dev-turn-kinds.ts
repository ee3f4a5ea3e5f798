/** The turn kinds measured through `troupe dev` (row g): plain and one read tool (two of `TurnKind`). */
export type DevTurnKind = "plain" | "read";

/** {@link DevTurnKind}s in report order. */
export const devTurnKinds: readonly DevTurnKind[] = ["plain", "read"];

/** How the report names each {@link DevTurnKind} (as rows a and b do). */
export const devKindLabels: Readonly<Record<DevTurnKind, string>> = {
  plain: "plain turn",
  read: "one read tool turn",
};
