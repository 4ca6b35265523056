// A real memory-state for consolidation tests, its writer commands run in this process as the
// writer thread runs them (schema-checked, one transaction each), and approved entries synced into
// its projection from plain facts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../source/ground/digests.js';
import type { AnyCommand } from '../../source/store/command.js';
import type { Db } from '../../source/store/database.js';
import { openMemoryState } from '../../source/store/memory/state-database.js';
import { commit } from '../../source/store/transaction.js';
import { type WriterPort, writerCommands } from '../../source/store/writer-commands.js';

export const OWNER = { scope: 'project' as const, repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };

export interface Fact {
  id: string;
  title: string;
  body: string;
  supersedes?: string[];
}

/** A fact as the projection's sync takes an approved entry (a work method of the project scope). */
export const entryInput = (fact: Fact) => ({
  id: fact.id,
  type: 'work_method',
  title: fact.title,
  appliesWhen: null,
  priority: 50,
  confidence: 'high',
  evidence: null,
  created: null,
  supersedes: fact.supersedes ?? [],
  body: fact.body,
  extra: {},
  scope: 'project' as const,
  paths: [`work_method/${fact.id}.md`],
  contentDigest: sha256Hex(`${fact.title}\n${fact.body}`),
});

export interface ConsolidationState {
  dir: string;
  db: Db;
  memoryStatePath: string;
  writer: WriterPort;
  /** The writer commands called, in order. */
  commits: string[];
  /** The owner's approved entries become these facts (a fact whose text changed gets a new revision). */
  sync(facts: Fact[]): void;
  close(): void;
}

export function consolidationState(label: string, facts: Fact[]): ConsolidationState {
  const dir = mkdtempSync(join(tmpdir(), `cm-${label}-`));
  const memoryStatePath = join(dir, 'memory-state.sqlite');
  const state = openMemoryState(memoryStatePath);
  const db = state.db;
  const commits: string[] = [];
  const context = { storeId: 'test', memoryStateUuid: state.memoryStateUuid, core: db };
  const writer: WriterPort = {
    storeId: 'test',
    call: ((name: string, input: unknown) => {
      const command = (writerCommands as Record<string, AnyCommand>)[name]!;
      commits.push(name);
      return Promise.resolve(commit(db, name, (tx) => command.run(tx, context, command.schema.parse(input))));
    }) as WriterPort['call'],
  };
  let generation: number | null = null;
  const sync = (next: Fact[]) => {
    void writer.call('memorySyncApproved', {
      owner: OWNER,
      expectedGeneration: generation,
      coverage: 'complete',
      unchanged: false,
      sourceTreeDigest: sha256Hex(JSON.stringify(next)),
      scanJson: '{}',
      problems: [],
      entries: next.map(entryInput),
    });
    generation = (generation ?? 0) + 1;
  };
  sync(facts);
  return {
    dir,
    db,
    memoryStatePath,
    writer,
    commits,
    sync,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
