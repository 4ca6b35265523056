// Sessions listed by start time over 50,000 sessions (half of them imported: stored last, started
// first): `sessions` (first page, a page half-way down, one client), the TUI's Sessions list and
// `status`, each read from the store as it is (v10, an index on the start) against the same store
// before that index (v9) — the floor, measured in the same run on a copy of the same rows.
import { copyFileSync, mkdirSync } from 'node:fs';
import { storeFiles } from '../../source/home.js';
import { readCaptureStatus } from '../../source/store/core/capture-reads.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { listSessions } from '../../source/store/core/session-reads.js';
import { type Db, openDatabase } from '../../source/store/database.js';
import { ledgerStatusAt } from '../../source/store/ledger/ledger-status.js';
import { migrate } from '../../source/store/migrations.js';
import { tempHome } from '../support/cli.js';
import { type Figure, median, report, timeMs } from './measure.js';

const SESSIONS = 50_000;
const READS = 21;

/** A v9 store of `SESSIONS` sessions; returns its home. */
function seededStore(): string {
  const home = tempHome('bench-sessions');
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema, 9);
  const clients = ['codex', 'claude', 'pi'];
  const insert = db.prepare(
    "INSERT INTO capture_activations (session_key, client, process_instance, host_session_id, ordinal, state, started_at_ms, origin) VALUES (?, ?, 'bench', ?, 1, 'ended', ?, ?)",
  );
  db.transaction(() => {
    for (let i = 0; i < SESSIONS; i++) {
      const imported = i >= SESSIONS / 2;
      const startedAt = (imported ? 1_600_000_000_000 - SESSIONS * 30_000 : 1_700_000_000_000) + i * 60_000;
      insert.run(
        `s-${i.toString(16).padStart(8, '0')}`,
        clients[i % 3],
        `h-${i}`,
        startedAt,
        imported ? 'imported' : 'live',
      );
    }
  })();
  db.close();
  return home;
}

function reads(db: Db, home: string, middle: string): Record<string, () => unknown> {
  const status = {
    storeId: 'bench',
    mode: 'read-only' as const,
    hookErrorsPath: storeFiles(home).hookErrors,
    ledger: () => ledgerStatusAt(storeFiles(home).ledger, storeFiles(home).ledgerHealth),
  };
  return {
    'sessions, first page (20)': () => listSessions(db, {}),
    'sessions, page after the 25,000th (20)': () => listSessions(db, { after: middle }),
    'sessions --client claude, first page': () => listSessions(db, { client: 'claude' }),
    "TUI's Sessions list (100)": () => listSessions(db, { limit: 100 }),
    'status (50 sessions)': () => readCaptureStatus(db, status),
  };
}

function medians(db: Db, home: string, middle: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, read] of Object.entries(reads(db, home, middle))) {
    read();
    const times: number[] = [];
    for (let i = 0; i < READS; i++) times.push(timeMs(read));
    out[name] = median(times);
  }
  return out;
}

export function sessionsFigures(): Figure[] {
  const old = seededStore();
  const home = tempHome('bench-sessions-v10');
  mkdirSync(home, { recursive: true });
  copyFileSync(storeFiles(old).core, storeFiles(home).core);
  const upgraded = openDatabase(storeFiles(home).core);
  migrate(upgraded, coreSchema);
  upgraded.close();
  const floorDb = openDatabase(storeFiles(old).core, { readonly: true });
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  const middle = floorDb
    .prepare(
      'SELECT session_key FROM capture_activations ORDER BY started_at_ms DESC, activation_id DESC LIMIT 1 OFFSET 25000',
    )
    .pluck()
    .get() as string;
  const floor = medians(floorDb, old, middle);
  const now = medians(db, home, middle);
  floorDb.close();
  db.close();
  return Object.keys(now).map((name) => {
    const ratio = now[name]! / floor[name]!;
    // The index is for the pages, which every listing reads: the first, and a later one, which
    // seeks to its cursor; the rest must not get slower.
    const first = name.startsWith('sessions, first') || name.startsWith('sessions, page after');
    return {
      name: `${name} over ${SESSIONS / 1000}k sessions (median of ${READS} reads)`,
      value: `${now[name]!.toFixed(2)} ms`,
      floor: `${floor[name]!.toFixed(2)} ms without the start index (v9)`,
      ratio,
      target: first ? 'ratio <= 0.5' : 'ratio <= 1.1',
      met: first ? ratio <= 0.5 : ratio <= 1.1,
      ...(name.startsWith('sessions, first') ? { id: 'sessions.first-page', better: 'lower' as const } : {}),
    };
  });
}

export async function runSessionsBench(): Promise<void> {
  report(sessionsFigures());
}
