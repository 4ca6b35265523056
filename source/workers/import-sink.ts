// The store's side of an import (hosts/import-run.ts): each step's turns in the writer's column form
// (the drain's StepMessages), committed by the writer as live capture's steps are; a file's cursor
// read over the caller's read-only connection; a refused file recorded in quarantine. A dry run
// reads the same cursors and the turns already stored, over a read-only connection, and writes nothing.
import { dryRunImportSink, type ImportCommitOutcome, type ImportSink, type ImportStep } from '../hosts/import-run.js';
import type { ImportClient } from '../hosts/import-files.js';
import { readImportWatch, readStoredTurns } from '../store/core/capture-imports.js';
import type { Db } from '../store/database.js';
import type { WriterClient } from './writer-client.js';
import { StepMessages } from './step-messages.js';

export function storeImportSink(reader: Db, writer: WriterClient, client: ImportClient): ImportSink {
  return {
    cursor: (path) => readImportWatch(reader, client, path),
    async commit(step: ImportStep): Promise<ImportCommitOutcome> {
      const messages = new StepMessages();
      for (const turn of step.turns) messages.add(turn);
      const columns = messages.finish();
      return writer.call(
        'captureImportStep',
        {
          client,
          sourcePath: step.path,
          hostSessionId: step.hostSessionId,
          cwd: step.cwd,
          startedAtMs: step.startedAtMs,
          watch: {
            fromBytes: step.fromBytes,
            toBytes: step.progress.consumedBytes,
            state: JSON.stringify(step.progress.state),
          },
          turns: columns.turns.map((turn, i) => ({ ...turn, firstLine: step.turns[i]!.firstLine })) as Array<
            (typeof columns.turns)[number] & { state: 'settled' | 'failed' | 'interrupted'; firstLine: number }
          >,
          messages: columns.messages,
        },
        columns.transfer,
      );
    },
    async quarantine(path, bytes, code, detail) {
      await writer.call('captureImportQuarantine', {
        client,
        sourcePath: path,
        sourceBytes: bytes,
        code: code.slice(0, 64),
        detail: detail.slice(0, 1000),
      });
    },
  };
}

/** A dry run that looks at the store (read-only): where each file's import stopped, and which turns it has. */
export function storeDryRunImportSink(reader: Db, client: ImportClient): ImportSink {
  return dryRunImportSink({
    cursor: (path) => readImportWatch(reader, client, path),
    stored: (step) =>
      readStoredTurns(
        reader,
        client,
        step.hostSessionId,
        step.path,
        step.turns.map((turn) => turn.key),
      ),
  });
}
