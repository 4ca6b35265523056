// memory-state.sqlite: the memory half's own store (seed 004 §2), separate from core.sqlite so
// that resetting or losing one never touches the other. Digests are lowercase hex TEXT; absolute
// paths (repository roots) exist only in this file. Migrated like core.sqlite: the version lives
// in PRAGMA user_version, one step per BEGIN IMMEDIATE (source/store/migrations.ts).
import { crypto } from '../../ground/lazy-builtin.js';
import type { Schema } from '../migrations.js';
import { approvedSearchableText, countRecallTerms } from './recall-terms.js';

export const memoryStateSchema: Schema = {
  name: 'memory-state.sqlite',
  steps: [
    // v1: identity, repository bindings, tasks and submissions, chunks, candidates with their FTS,
    // evidence and assessments, the (empty) approved projection, authorisation log, conformance cache.
    (db) => {
      db.exec(`
        CREATE TABLE memory_state_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

        CREATE TABLE repository_bindings (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          root_realpath TEXT NOT NULL,
          root_realpath_digest TEXT NOT NULL,
          common_dir_device TEXT NOT NULL,
          common_dir_inode TEXT NOT NULL,
          memory_root TEXT NOT NULL DEFAULT '.common-memory/memory',
          status TEXT NOT NULL DEFAULT 'active',
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT;

        CREATE TABLE runs (
          run_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          runner TEXT NOT NULL,
          request_json TEXT NOT NULL,
          request_digest TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed')),
          summary_json TEXT,
          started_at_ms INTEGER NOT NULL,
          finished_at_ms INTEGER
        ) STRICT;

        CREATE TABLE chunks (
          chunk_ref TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          session_key TEXT NOT NULL,
          turn_range TEXT NOT NULL,
          chunk_digest TEXT NOT NULL,
          source_input_digest TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'drafted', 'extracted', 'stale')),
          created_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE tasks (
          task_id TEXT PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('extraction', 'adjudication', 'consolidation')),
          run_id TEXT,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          chunk_ref TEXT REFERENCES chunks (chunk_ref),
          draft_batch_ref TEXT,
          task_json TEXT NOT NULL,
          authorization_plan_digest TEXT,
          lease_holder TEXT,
          lease_epoch INTEGER NOT NULL DEFAULT 0,
          claim_token TEXT,
          lease_expires_at_ms INTEGER,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'submitted', 'stale')),
          attempts INTEGER NOT NULL DEFAULT 0,
          last_error TEXT,
          superseded_by TEXT,
          created_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX tasks_open ON tasks (status, created_at_ms) WHERE status IN ('pending', 'claimed');

        CREATE TABLE submissions (
          task_id TEXT PRIMARY KEY REFERENCES tasks (task_id),
          response_digest TEXT NOT NULL,
          outcome_json TEXT NOT NULL,
          received_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE submission_conflicts (
          task_id TEXT NOT NULL,
          response_digest TEXT NOT NULL,
          reason TEXT NOT NULL,
          received_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE candidates (
          candidate_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          chunk_ref TEXT NOT NULL REFERENCES chunks (chunk_ref),
          task_id TEXT NOT NULL,
          revision INTEGER NOT NULL DEFAULT 1,
          content_digest TEXT NOT NULL,
          payload_json TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'quarantined', 'promoted', 'discarded', 'superseded')),
          adjudication TEXT NOT NULL DEFAULT 'pending' CHECK (adjudication IN ('pending', 'done', 'failed')),
          decision TEXT CHECK (decision IN ('store', 'skip', 'update', 'merge')),
          superseded_by TEXT,
          findings_json TEXT NOT NULL DEFAULT '[]',
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX candidates_by_status ON candidates (status, adjudication);

        -- rowid = candidates.rowid; kept in the transaction that writes the candidate. Only live
        -- candidates (draft) are in it: the dedup pool.
        CREATE VIRTUAL TABLE candidate_fts USING fts5(searchable_text, content='', contentless_delete=1, tokenize='porter unicode61');

        CREATE TABLE candidate_projection (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          generation INTEGER NOT NULL,
          analyzer_version TEXT NOT NULL,
          recall_algorithm_version TEXT NOT NULL,
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT;

        CREATE TABLE candidate_provenance (
          candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id),
          from_candidate_id TEXT NOT NULL,
          relation TEXT NOT NULL CHECK (relation IN ('update', 'merge', 'skip')),
          task_id TEXT NOT NULL,
          from_revision INTEGER NOT NULL,
          recorded_at_ms INTEGER NOT NULL,
          PRIMARY KEY (candidate_id, from_candidate_id, task_id)
        ) STRICT;

        CREATE TABLE approved_entries (
          entry_id TEXT NOT NULL,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          revision INTEGER NOT NULL,
          content_digest TEXT NOT NULL,
          frontmatter_json TEXT NOT NULL,
          body_text TEXT NOT NULL,
          status TEXT NOT NULL,
          PRIMARY KEY (entry_id, repository_key, worktree_key)
        ) STRICT;
        CREATE VIRTUAL TABLE approved_fts USING fts5(searchable_text, content='', contentless_delete=1, tokenize='porter unicode61');

        CREATE TABLE approved_projection (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          generation INTEGER NOT NULL,
          source_tree_digest TEXT NOT NULL,
          coverage TEXT NOT NULL DEFAULT 'complete' CHECK (coverage IN ('complete', 'partial')),
          analyzer_version TEXT NOT NULL,
          recall_algorithm_version TEXT NOT NULL,
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT;

        CREATE TABLE runner_conformance (
          profile TEXT PRIMARY KEY,
          cli_version_fingerprint TEXT NOT NULL,
          test_version TEXT NOT NULL,
          passed_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE evidence_refs (
          candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id),
          statement_id TEXT NOT NULL,
          evidence_id TEXT NOT NULL,
          pointer_digest TEXT NOT NULL,
          session_key TEXT NOT NULL,
          turn_key TEXT NOT NULL,
          client TEXT NOT NULL,
          relation TEXT NOT NULL DEFAULT 'cites',
          strength TEXT NOT NULL,
          limitations_json TEXT NOT NULL DEFAULT '[]',
          task_id TEXT NOT NULL,
          PRIMARY KEY (candidate_id, statement_id, evidence_id)
        ) STRICT;

        CREATE TABLE assessments (
          candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id),
          statement_id TEXT NOT NULL,
          citations_digest TEXT NOT NULL,
          provenance_strength TEXT NOT NULL,
          limitations_json TEXT NOT NULL,
          claim_support TEXT NOT NULL CHECK (claim_support IN ('unverified', 'typed-fact', 'human-confirmed')),
          assessed_by TEXT NOT NULL CHECK (assessed_by IN ('deterministic', 'human')),
          statement_text_digest TEXT NOT NULL,
          revision INTEGER NOT NULL,
          PRIMARY KEY (candidate_id, statement_id)
        ) STRICT;

        CREATE TABLE authorization_log (
          plan_digest TEXT NOT NULL,
          task_id TEXT,
          runner_input_digest TEXT,
          input_coverage_digest TEXT,
          provider TEXT,
          model TEXT,
          endpoint TEXT,
          bytes INTEGER,
          decided_at_ms INTEGER NOT NULL,
          via TEXT NOT NULL CHECK (via IN ('interactive', 'digest', 'manifest')),
          manifest_digest TEXT
        ) STRICT;
      `);
      db.prepare("INSERT INTO memory_state_meta (key, value) VALUES ('memory_state_uuid', ?), ('created_at', ?)").run(
        crypto().randomUUID(),
        new Date().toISOString(),
      );
    },
    // v2: the approved projection keeps each entry's scope and paths, and per owner the last
    // complete scan (for the unchanged-tree short circuit) and the last scan's problems.
    (db) => {
      db.exec(`
        ALTER TABLE approved_entries ADD COLUMN scope TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('project', 'user'));
        ALTER TABLE approved_entries ADD COLUMN paths_json TEXT NOT NULL DEFAULT '[]';
        CREATE INDEX approved_entries_by_owner ON approved_entries (repository_key, worktree_key);
        ALTER TABLE approved_projection ADD COLUMN scope TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('project', 'user'));
        ALTER TABLE approved_projection ADD COLUMN scan_json TEXT;
        ALTER TABLE approved_projection ADD COLUMN problems_json TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE approved_projection ADD COLUMN synced_at_ms INTEGER;
      `);
    },
    // v3: the session-start snapshot's order per owner (snapshot-read.ts), so that the SessionStart
    // hook reads the few entries that fit its budget without sorting every entry of the owner.
    (db) => {
      db.exec(`
        CREATE INDEX approved_entries_snapshot_order ON approved_entries (
          repository_key, worktree_key,
          json_extract(frontmatter_json, '$.priority') DESC,
          json_extract(frontmatter_json, '$.created') DESC,
          entry_id);
      `);
    },
    // v4: the promotion journal: each plan with its canonical JSON and digest, the memory root it
    // writes into, and per target file the exact approved bytes, the blob OID seen at prepare and
    // how far promotion got.
    (db) => {
      db.exec(`
        CREATE TABLE promotion_journal (
          plan_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          scope TEXT NOT NULL CHECK (scope IN ('project', 'user')),
          anchor TEXT NOT NULL,
          candidate_owner_json TEXT NOT NULL,
          plan_canonical_json TEXT NOT NULL,
          plan_digest TEXT NOT NULL,
          candidate_ids_json TEXT NOT NULL,
          assessment_digest TEXT NOT NULL,
          policy_version TEXT NOT NULL,
          diff TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'generated' CHECK (status IN ('generated', 'approved', 'applying', 'applied', 'voided')),
          void_reason TEXT,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX promotion_journal_open ON promotion_journal (status) WHERE status IN ('approved', 'applying');

        CREATE TABLE promotion_files (
          plan_id TEXT NOT NULL REFERENCES promotion_journal (plan_id),
          target_path TEXT NOT NULL,
          entry_id TEXT NOT NULL,
          action TEXT NOT NULL CHECK (action IN ('create', 'update')),
          candidate_ids_json TEXT NOT NULL,
          target_blob_hash TEXT,
          sanitized_content BLOB NOT NULL,
          sanitized_digest TEXT NOT NULL,
          findings_json TEXT NOT NULL DEFAULT '[]',
          state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'written', 'skipped', 'drifted')),
          PRIMARY KEY (plan_id, target_path)
        ) STRICT;
      `);
    },
    // v5: external runners. Each authorisation decision names its runner profile and whether it
    // approved or refused; every task sent to an external runner is recorded with its bytes, which
    // the per-run and per-day budgets are checked against.
    (db) => {
      db.exec(`
        ALTER TABLE authorization_log ADD COLUMN runner_profile TEXT;
        ALTER TABLE authorization_log ADD COLUMN decision TEXT NOT NULL DEFAULT 'approved' CHECK (decision IN ('approved', 'refused'));
        ALTER TABLE authorization_log ADD COLUMN reason TEXT;
        CREATE TABLE runner_sends (
          task_id TEXT NOT NULL,
          plan_digest TEXT NOT NULL,
          runner_profile TEXT NOT NULL,
          run_id TEXT NOT NULL,
          bytes INTEGER NOT NULL,
          sent_at_ms INTEGER NOT NULL,
          utc_day TEXT NOT NULL
        ) STRICT;
        CREATE INDEX runner_sends_by_day ON runner_sends (runner_profile, utc_day);
      `);
    },
    // v6: how many rows of each recall index hold each term, so that recall can query by a
    // draft's rarest terms (recall-terms.ts); counted from the rows the indexes already hold.
    (db) => {
      db.exec(`
        CREATE TABLE recall_terms (
          term TEXT NOT NULL,
          source_kind TEXT NOT NULL CHECK (source_kind IN ('candidate', 'approved')),
          rows INTEGER NOT NULL CHECK (rows > 0),
          PRIMARY KEY (term, source_kind)
        ) STRICT, WITHOUT ROWID;
      `);
      const pooled = db
        .prepare(
          `SELECT json_extract(payload_json, '$.content') FROM candidates
           WHERE status = 'draft' AND adjudication = 'done' AND decision IN ('store', 'update', 'merge')`,
        )
        .pluck()
        .all() as string[];
      for (const text of pooled) countRecallTerms(db, 'candidate', text);
      const approved = db.prepare('SELECT frontmatter_json AS frontmatter, body_text AS body FROM approved_entries');
      for (const row of approved.all() as Array<{ frontmatter: string; body: string }>) {
        const { title, appliesWhen } = JSON.parse(row.frontmatter) as { title?: string; appliesWhen?: string | null };
        const text = approvedSearchableText({ title: title ?? '', appliesWhen: appliesWhen ?? null, body: row.body });
        countRecallTerms(db, 'approved', text);
      }
    },
    // v7: how many entries each owner's projection holds, kept by the sync that replaces them, so
    // that the SessionStart hook says "N more" without counting every entry of the owner. A table
    // of its own: a column of approved_projection would sit behind scan_json, whose overflow pages
    // (a large root's scan) SQLite walks to reach it.
    (db) => {
      db.exec(`
        CREATE TABLE approved_entry_counts (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          entries INTEGER NOT NULL CHECK (entries >= 0),
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO approved_entry_counts (repository_key, worktree_key, entries)
          SELECT repository_key, worktree_key, count(*) FROM approved_entries GROUP BY repository_key, worktree_key;
      `);
    },
  ],
};
