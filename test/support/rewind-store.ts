// Tests that rewind a core store to an older schema version undo what the later steps added first.
import type { Db } from '../../source/store/database.js';

/** Undoes core step v8 (imports: provenance columns, an index and the quarantine table). */
export function undoImportsStep(db: Db): void {
  db.exec('DROP TABLE import_quarantine');
  db.exec('DROP INDEX capture_watches_by_session');
  db.exec('ALTER TABLE capture_turns DROP COLUMN source_line');
  db.exec('ALTER TABLE capture_activations DROP COLUMN origin');
  db.exec('ALTER TABLE capture_watches DROP COLUMN origin');
}

/** Undoes core step v10 (the index of sessions by when they started). */
export function undoSessionStartStep(db: Db): void {
  db.exec('DROP INDEX capture_activations_by_start');
}
