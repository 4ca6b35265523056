// Schema migrations: the version lives in PRAGMA user_version (one place, inside the file),
// each step runs in its own BEGIN IMMEDIATE transaction together with the version bump,
// so a crash leaves the file at a whole version and a rerun is a no-op.
import { CmError } from '../errors.js';
import type { Db } from './database.js';

export interface Schema {
  name: string;
  /** steps[i] migrates version i to version i + 1. Never edit a released step; append one. */
  steps: ReadonlyArray<(db: Db) => void>;
}

export const schemaVersion = (db: Db): number => db.pragma('user_version', { simple: true }) as number;

/** Migrates to `target` (default: latest). Safe to call from many processes at once. */
export function migrate(db: Db, schema: Schema, target = schema.steps.length): number {
  for (;;) {
    const version = db
      .transaction((): number => {
        const current = schemaVersion(db);
        if (current > schema.steps.length) {
          throw new CmError(
            'store_unavailable',
            `${schema.name} has schema version ${current}, newer than this common-memory understands (${schema.steps.length}). Upgrade common-memory; nothing was changed.`,
          );
        }
        if (current >= target) return current;
        const step = schema.steps[current]!;
        step(db);
        db.pragma(`user_version = ${current + 1}`);
        return current + 1;
      })
      .immediate();
    if (version >= target) return version;
  }
}
