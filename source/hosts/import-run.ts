// One import of a client's stored transcripts (`import`): every file under the client's folder,
// oldest first, through its strict parser, committed in steps of IMPORT_STEP_BYTES through a sink
// — the store's writer for a real import, a counter for a dry run — so the same code says what an
// import would do and does it. A file is the unit of failure: a link, a FIFO, an unreadable
// directory or a file live capture already has is skipped; a file over the byte bound, a record
// the parser refuses or a file shorter than what was imported is quarantined; the rest imports.
// A killed import goes on from each file's committed cursor: nothing is read or stored twice.
import { existsSync } from 'node:fs';
import type { ImportNote, ImportProgress, ImportReport } from '../api/capture.js';
import { IMPORT_REST_MS, IMPORT_STEP_BYTES, IMPORT_STEPS_IN_FLIGHT } from '../limits.js';
import {
  findImportFiles,
  isInside,
  openTurnCount,
  overLimitText,
  parseImportFile,
  recordedCwd,
  turnStartMs,
  type ImportClient,
  type ImportFile,
} from './import-files.js';
import type { CursorState, ParseProgress, TranscriptTurn } from './transcript-model.js';

/** The note of a file whose turns have no end recorded yet. */
const openTurnsText = (count: number) =>
  `${count} turn(s) with no end recorded yet; the next import reads them once they end`;

export type ImportCommitOutcome =
  /** `skippedLive`: of the `skipped` turns (stored already from another file), those live capture stored. */
  | { outcome: 'applied'; sealed: number; skipped: number; skippedLive: number; sessionKey: string | null }
  | { outcome: 'stale' }
  | { outcome: 'live' }
  | { outcome: 'rejected'; code: string; detail: string };

export interface ImportStep {
  path: string;
  cwd: string | null;
  hostSessionId: string;
  startedAtMs: number;
  fromBytes: number;
  progress: ParseProgress<CursorState>;
  turns: TranscriptTurn[];
}

/** Where the import's work goes: the store (a real import) or nowhere (a dry run). */
export interface ImportSink {
  /** The file's watch: live capture's, or where an earlier import stopped; undefined for a new file. */
  cursor(path: string):
    | {
        origin: 'live' | 'imported';
        consumedBytes: number;
        parserState: string | null;
        stored: 'live' | 'imported' | null;
      }
    | undefined;
  commit(step: ImportStep): Promise<ImportCommitOutcome>;
  quarantine(path: string, bytes: number, code: string, detail: string): Promise<void>;
}

/**
 * A dry run stores nothing. With no store to look at (no data home yet) every step counts as the
 * turns it would seal; `stored` answers, for a store that exists, where a step's turns are already
 * (readStoredTurns), so the dry run counts what an import would skip as the import does. A session
 * in two files is counted once, as the import stores it once.
 */
export function dryRunImportSink(store?: {
  cursor: ImportSink['cursor'];
  stored(step: ImportStep): Map<string, 'own' | 'live' | 'imported'>;
}): ImportSink {
  const counted = new Set<string>();
  return {
    cursor: (path) => store?.cursor(path),
    commit: async (step) => {
      const stored = store?.stored(step) ?? new Map<string, 'own' | 'live' | 'imported'>();
      let sealed = 0;
      let skipped = 0;
      let skippedLive = 0;
      for (const turn of step.turns) {
        const where = stored.get(turn.key);
        if (where === 'own') continue; // the same turn again: a no-op, as the import's
        const id = JSON.stringify([step.hostSessionId, turn.key]);
        if (where !== undefined || counted.has(id)) {
          skipped += 1;
          if (where === 'live') skippedLive += 1;
          continue;
        }
        counted.add(id);
        sealed += 1;
      }
      return { outcome: 'applied', sealed, skipped, skippedLive, sessionKey: step.hostSessionId };
    },
    quarantine: async () => {},
  };
}

export interface ImportPlan {
  client: ImportClient;
  root: string;
  sinceMs: number;
  untilMs: number;
  repository: string | null;
  dryRun: boolean;
}

export async function runImport(
  plan: ImportPlan,
  sink: ImportSink,
  onProgress: (progress: ImportProgress) => void = () => {},
): Promise<ImportReport> {
  const started = performance.now();
  const found = findImportFiles(plan.client, plan.root, plan.sinceMs, plan.untilMs);
  const notes: ImportNote[] = found.skipped.map((s) => ({ path: s.path, what: 'skipped', reason: s.reason }));
  const report: ImportReport = {
    client: plan.client,
    root: plan.root,
    dryRun: plan.dryRun,
    files: 0,
    sessions: 0,
    turns: 0,
    skipped: found.skipped.length,
    quarantined: 0,
    bytes: 0,
    turnsAlreadyStored: 0,
    alreadyImported: 0,
    capturedLive: 0,
    openTurns: 0,
    firstAt: null,
    lastAt: null,
    repositories: [],
    notes,
    extraction: null,
  };
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const repositories = new Map<string | null, number>();
  const quarantine = async (file: ImportFile, code: string, detail: string) => {
    report.quarantined += 1;
    notes.push({ path: file.path, what: 'quarantined', reason: `${code}: ${detail}` });
    await sink.quarantine(file.path, file.bytes, code, detail);
  };
  for (const file of found.over) await quarantine(file, 'import_over_limit', overLimitText(file));
  let filesDone = 0;
  const progress = () =>
    onProgress({
      filesDone,
      filesTotal: found.files.length,
      sessions: report.sessions,
      turns: report.turns,
      bytes: report.bytes,
      elapsedMs: Math.round(performance.now() - started),
    });
  // Steps flow to the writer across file boundaries, at most IMPORT_STEPS_IN_FLIGHT unanswered in
  // all; what each file came to (its counts, notes and quarantine record) is settled in file order.
  const window: Promise<void>[] = [];
  /** A writer failure (not a refused step) ends the import: no step is sent after it is known. */
  let writerFailure: { error: unknown } | null = null;
  let previousFile: Promise<void> = Promise.resolve();
  try {
    for (const file of found.files) {
      filesDone += 1;
      const cwd = recordedCwd(file.path);
      if (plan.repository !== null && !isInside(cwd, plan.repository)) continue;
      const cursor = sink.cursor(file.path);
      if (cursor?.origin === 'live') {
        await previousFile;
        report.capturedLive += 1;
        notes.push({ path: file.path, what: 'skipped', reason: 'captured live by the hooks; not imported again' });
        continue;
      }
      const from = cursor?.consumedBytes ?? 0;
      if (from > file.bytes) {
        await previousFile;
        await quarantine(
          file,
          'transcript_cursor_mismatch',
          `the file has ${file.bytes} bytes, fewer than the ${from} already imported (replaced or truncated)`,
        );
        continue;
      }
      // A Claude file at rest whose last turn the previous import left open is read again (no new bytes):
      // that turn may now import as settled (endsOnAnswer).
      const openAtRest =
        plan.client === 'claude' &&
        Date.now() - file.mtimeMs >= IMPORT_REST_MS &&
        cursor?.parserState != null &&
        (JSON.parse(cursor.parserState) as { openTurn?: unknown }).openTurn != null;
      if (from === file.bytes && !openAtRest) {
        await previousFile;
        // Nothing new since the last import: its session is counted where its turns are.
        if (cursor?.stored === 'imported') report.alreadyImported += 1;
        else if (cursor?.stored === 'live') report.capturedLive += 1;
        // A turn left open (an answer that ended on an error, a tool call) still waits: the
        // report says so each time, not only the first, or it reads as nothing left to import.
        const open = cursor?.parserState ? openTurnCount(plan.client, file.path, JSON.parse(cursor.parserState)) : 0;
        if (open > 0) {
          report.openTurns += open;
          notes.push({ path: file.path, what: 'open', reason: openTurnsText(open) });
        }
        continue;
      }
      report.files += 1;
      let state: unknown = null;
      if (cursor?.parserState) state = JSON.parse(cursor.parserState) as unknown;
      let pending: TranscriptTurn[] = [];
      let stepFrom = from;
      let sealedHere = 0;
      let skippedHere = 0;
      let skippedLiveHere = 0;
      /** The first refused step's verdict: the file's later steps find the cursor unmoved (stale). */
      let stop: StopFile | null = null;
      // The file's next chunk parses while the writer applies its steps. A step sent after one the
      // store refused finds the cursor where it was and writes nothing (stale).
      const sent: Promise<void>[] = [];
      const before = previousFile;
      /** Waits for every step of this file: its turns counted, or the file stopped (StopFile). */
      const settle = async () => {
        while (sent.length > 0) await sent.shift();
      };
      const commit = async (fed: ParseProgress<CursorState>) => {
        while (window.length >= IMPORT_STEPS_IN_FLIGHT) await window.shift();
        if (writerFailure !== null) throw writerFailure.error;
        if (stop !== null) throw stop; // an earlier step of this file was refused: send no more
        if (fed.sessionKey === null) return; // no session line yet: nothing to keep
        const turns = pending;
        pending = [];
        const starts = turns.map(turnStartMs).filter((ms): ms is number => ms !== null);
        for (const ms of starts) {
          first = Math.min(first, ms);
          last = Math.max(last, ms);
        }
        const applying = sink
          .commit({
            path: file.path,
            cwd,
            hostSessionId: fed.sessionKey,
            startedAtMs: starts.length > 0 ? Math.min(...starts) : Math.round(file.mtimeMs),
            fromBytes: stepFrom,
            progress: fed,
            turns,
          })
          .then((outcome) => {
            if (outcome.outcome === 'applied') {
              report.turns += outcome.sealed;
              report.turnsAlreadyStored += outcome.skipped;
              sealedHere += outcome.sealed;
              skippedHere += outcome.skipped;
              skippedLiveHere += outcome.skippedLive;
              return;
            }
            stop ??= new StopFile(
              outcome.outcome === 'rejected',
              outcome.outcome === 'live'
                ? 'captured live by the hooks; not imported again'
                : outcome.outcome === 'stale'
                  ? 'another import moved this file on meanwhile; skipped'
                  : `${outcome.code}: ${outcome.detail}`,
            );
            throw stop;
          });
        sent.push(applying); // read by settle; the window's handler below keeps it from going unhandled meanwhile
        window.push(
          applying.catch((error: unknown) => {
            if (!(error instanceof StopFile)) writerFailure ??= { error };
          }),
        );
        report.bytes += fed.consumedBytes - stepFrom;
        stepFrom = fed.consumedBytes;
      };
      const importFile = async () => {
        const parsed = await parseImportFile(plan.client, file.path, state, async (turns, fed) => {
          pending.push(...turns);
          if (fed.consumedBytes - stepFrom >= IMPORT_STEP_BYTES) await commit(fed);
          progress();
        });
        // The turns of the chunks that parsed are kept even when a later line fails: the cursor is theirs.
        if ('consumedBytes' in parsed && (pending.length > 0 || parsed.consumedBytes > stepFrom)) await commit(parsed);
        if (!('consumedBytes' in parsed) || parsed.failure) return parsed;
        const atRest = plan.client === 'claude' && Date.now() - file.mtimeMs >= IMPORT_REST_MS;
        const ended = atRest ? parsed.openTurns.filter(endsOnAnswer) : [];
        if (ended.length === 0) return parsed;
        // Stored as settled, it leaves the parser's state (Claude's `openTurn`): the end that may come
        // later (a resumed session's stop summary, its next prompt) finds no open turn to settle again.
        pending = ended.map((turn) => ({ ...turn, state: 'settled' }));
        await commit({ ...parsed, state: { ...parsed.state, openTurn: null } as CursorState });
        return { ...parsed, openTurns: parsed.openTurns.filter((turn) => !ended.includes(turn)) };
      };
      // Its last step applied (after the file before it), then what the file came to; the next file
      // parses meanwhile.
      const finishFile = async (parsing: ReturnType<typeof importFile>): Promise<void> => {
        let result: Awaited<ReturnType<typeof importFile>>;
        try {
          const parsed = await parsing;
          await before;
          await settle();
          result = parsed;
        } catch (error) {
          await before; // what this file came to is recorded after the file before it (a failure there is the import's)
          // Steps still in flight when the parse stopped: their outcomes no longer matter.
          for (const applying of sent.splice(0)) await applying.catch(() => undefined);
          if (!(error instanceof StopFile) && (error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
          const { quarantine: quarantined, reason } =
            error instanceof StopFile ? error : new StopFile(false, 'not readable (EACCES)');
          report[quarantined ? 'quarantined' : 'skipped'] += 1;
          // A file passed over (unreadable, or moved on by another import) was not read here:
          // counted as skipped only, not also among the files read ("in N file(s)").
          if (!quarantined) report.files -= 1;
          notes.push({ path: file.path, what: quarantined ? 'quarantined' : 'skipped', reason });
          if (quarantined) await sink.quarantine(file.path, file.bytes, reason.split(':')[0]!, reason);
          return;
        }
        if (result.failure) {
          const f = result.failure;
          await quarantine(file, f.code, `line ${f.line} (byte ${f.byteOffset}): ${f.detail}`);
        } else {
          if (result.unconsumedBytes > 0)
            notes.push({
              path: file.path,
              what: 'partial',
              reason: `its last ${result.unconsumedBytes} bytes end in no newline (a client still writing it?); the next import reads them once the line is complete`,
            });
          if (result.openTurns.length > 0) {
            report.openTurns += result.openTurns.length;
            notes.push({
              path: file.path,
              what: 'open',
              reason: openTurnsText(result.openTurns.length),
            });
          }
        }
        if (sealedHere > 0) {
          report.sessions += 1;
          repositories.set(cwd, (repositories.get(cwd) ?? 0) + 1);
        } else if (skippedHere > 0) {
          // Every turn read was stored before: by live capture (pi's extension, a hooked copy), or by
          // an import of another file holding the same session.
          report[skippedLiveHere > 0 ? 'capturedLive' : 'alreadyImported'] += 1;
        }
        progress();
      };
      const parsing = importFile();
      // Awaited before the next file's outcome is recorded, or after the last file; a failure surfaces there.
      previousFile = finishFile(parsing);
      previousFile.catch(() => undefined);
      await parsing.catch(() => undefined);
    }
    await previousFile;
  } finally {
    // A failed import returns once nothing it sent is still being written.
    await Promise.all(window);
  }
  progress();
  report.firstAt = Number.isFinite(first) ? new Date(first).toISOString() : null;
  report.lastAt = Number.isFinite(last) ? new Date(last).toISOString() : null;
  report.repositories = [...repositories].map(([cwd, sessions]) => ({
    cwd,
    sessions,
    exists: cwd !== null && existsSync(cwd),
  }));
  return report;
}

/**
 * Claude Code records no end of a turn when no Stop hook ran (a session without common-memory's
 * hooks): the last turn of such a file stays open. Once the file is at rest, an open turn whose last
 * message is the model's answer evidently finished, as the parser settles a turn at the next prompt.
 */
function endsOnAnswer(turn: TranscriptTurn): boolean {
  const last = turn.messages.at(-1);
  return last !== undefined && last.role === 'assistant' && last.kind === 'answer';
}

/** Ends one file's import: a commit the store refused (quarantine) or passed over (skip). */
/** A file's import stopped by a refused step (or an unreadable file): quarantined or skipped, and why. */
class StopFile extends Error {
  constructor(
    readonly quarantine: boolean,
    readonly reason: string,
  ) {
    super('stop file');
  }
}
