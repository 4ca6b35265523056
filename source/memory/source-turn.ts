// A turn as extraction reads it: the plain value store/core/turn-source.ts selects from core.sqlite
// and the pure chunking and repetition rules consume.

export interface SourceMessage {
  key: string;
  role: string;
  classification: 'evidence' | 'context';
  kind: string;
  body: string;
  digest: string;
}

export interface SourceTurn {
  client: string;
  sessionKey: string;
  turnKey: string;
  /** Seal (or admission) time. */
  recordedAtMs: number;
  cwd: string | null;
  /** Order within the session. */
  ordinal: number;
  /** The turn's content digest (its revision). */
  digest: string;
  messages: SourceMessage[];
}
