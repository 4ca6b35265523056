// One text of the session-search index, and when its user typed it: the client's own timestamp of
// the message, as the transcript records it. The seal instant says when the drain processed the
// turn, which without a running host can be hours later, and for an imported turn is the day of the
// import. No imports: the hook's fast path migrates a fresh store with it (schema/v9-typed-at.ts).

/** One text of the index, as the writer adds it. */
export interface IndexedText {
  body: string;
  ref: string;
  client: string;
  sessionKey: string;
  turnKey: string;
  recordedAtMs: number;
  /** When it was typed: what a person's search reads its times against. */
  typedAtMs: number;
}

/** The instant of a client's timestamp in milliseconds, or null when there is none or it is not a time. */
export function typedAtMs(timestamp: string | null | undefined): number | null {
  if (timestamp === null || timestamp === undefined) return null;
  const ms = Date.parse(timestamp);
  return Number.isFinite(ms) ? ms : null;
}
