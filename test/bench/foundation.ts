// Foundation figures (store, host, journal/timeline):
//  1. note through the host API (commits/s) against raw durable single-row commits, same settings;
//  2. the hook dispatch path (whole process) against node + better-sqlite3 + one durable insert;
//  3. paging a 100k-row journal 100 rows at a time: last page against first page.
import { mkdirSync, readFileSync } from 'node:fs';
import { apiClient } from '../../source/client/api-client.js';
import { storeFiles } from '../../source/home.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { appendNote } from '../../source/store/core/notes.js';
import { readStoreId } from '../../source/store/core/sequences.js';
import { hookCommand } from '../../source/hosts/hook-config.js';
import { startHost, stopHost, tempHome } from '../support/cli.js';
import {
  hookFigures,
  median,
  rawCommitsPerSecond,
  report,
  timeHookAgainstFloor,
  timeMsAsync,
  type Figure,
} from './measure.js';

const ROUNDS = 5;

async function noteThroughApi(): Promise<Figure[]> {
  const home = tempHome('bench-note');
  const { child } = await startHost(home);
  const info = JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8'));
  const client = apiClient(info.port, info.token);
  const count = 400;
  const clients = 8;
  const sequential: number[] = [];
  const concurrent: number[] = [];
  const raw: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const oneByOne = await timeMsAsync(async () => {
      for (let i = 0; i < count; i++) await client.appendNote({ text: `note ${round}-${i}` });
    });
    sequential.push(count / (oneByOne / 1000));
    // Several clients at once (CLIs, the TUI, agents): each note is still its own transaction,
    // committed before its reply; HTTP work overlaps with the writer thread's commits.
    const together = await timeMsAsync(() =>
      Promise.all(
        Array.from({ length: clients }, async (_, lane) => {
          for (let i = 0; i < count / clients; i++) await client.appendNote({ text: `note ${round}-${lane}-${i}` });
        }),
      ),
    );
    concurrent.push(count / (together / 1000));
    raw.push(rawCommitsPerSecond(count, (i) => JSON.stringify({ text: `note ${i}` })));
  }
  await stopHost(child);
  const floor = `${median(raw).toFixed(0)} raw durable commits/s`;
  const ratio = median(concurrent) / median(raw);
  return [
    {
      name: `note via host API, ${clients} clients (median of ${ROUNDS})`,
      value: `${median(concurrent).toFixed(0)} commits/s`,
      floor,
      ratio,
      target: 'ratio >= 0.5',
      met: ratio >= 0.5,
    },
    {
      name: 'note via host API, one client waiting for each reply',
      value: `${median(sequential).toFixed(0)} commits/s (${(1000 / median(sequential)).toFixed(2)} ms each)`,
      floor,
      ratio: median(sequential) / median(raw),
      target: 'reported, no bound (limited by the loopback round trip)',
      met: null,
    },
  ];
}

function hookPath(): Figure[] {
  const home = tempHome('bench-hook');
  const payload = readFileSync(
    new URL('../../fixtures/codex/hooks/a/02-UserPromptSubmit.json', import.meta.url),
    'utf8',
  );
  const times = timeHookAgainstFloor(hookCommand('codex', home), () => payload, 30, {
    ...process.env,
    NODE_OPTIONS: '',
  });
  return hookFigures('hook dispatch', times);
}

async function paging(): Promise<Figure> {
  const home = tempHome('bench-page');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const rows = 100_000;
  {
    // Setup only: the notes go in through the store's own append in large transactions.
    const db = openDatabase(storeFiles(home).core);
    migrate(db, coreSchema);
    const storeId = readStoreId(db);
    for (let batch = 0; batch < rows / 5000; batch++) {
      db.transaction(() => {
        for (let i = 0; i < 5000; i++) appendNote({ db, nowMs: Date.now() }, storeId, { text: `note ${batch}-${i}` });
      }).immediate();
    }
    db.close();
  }
  const { child } = await startHost(home);
  const info = JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8'));
  const client = apiClient(info.port, info.token);
  const head = (await client.status()).heads.journal;
  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < 200; i++) {
    first.push(await timeMsAsync(() => client.journal({ after: 0, limit: 100 })));
    last.push(await timeMsAsync(() => client.journal({ after: head - 100, limit: 100 })));
  }
  await stopHost(child);
  const ratio = median(last) / median(first);
  return {
    name: `journal page of 100 at ${head} rows, last vs first (median)`,
    value: `${median(last).toFixed(2)} ms`,
    floor: `${median(first).toFixed(2)} ms first page`,
    ratio,
    target: 'ratio <= 2',
    met: ratio <= 2,
  };
}

export async function runFoundationBench(): Promise<Figure[]> {
  const figures = [...(await noteThroughApi()), ...hookPath(), await paging()];
  report(figures);
  return figures;
}
