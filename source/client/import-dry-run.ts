// What `import` would do, without a host and without writing: the client's files read in this
// process, against the data home's store when there is one (opened read-only, never created), so
// files already imported or captured live are reported as such and not counted as to import.
import { existsSync } from 'node:fs';
import type { ImportReport } from '../api/capture.js';
import { storeFiles } from '../home.js';
import { dryRunImportSink, type ImportPlan, runImport } from '../hosts/import-run.js';
import { openDatabase } from '../store/database.js';
import { storeDryRunImportSink } from '../workers/import-sink.js';
import { isCurrentStore } from './read-only-application.js';

export async function dryRunImport(home: string, plan: Omit<ImportPlan, 'dryRun'>): Promise<ImportReport> {
  const core = storeFiles(home).core;
  // A store of an older schema is migrated by its next writer, never by a read: until then the dry
  // run counts every file as new, as for an empty data home.
  if (!existsSync(core) || !isCurrentStore(core)) return runImport({ ...plan, dryRun: true }, dryRunImportSink());
  const reader = openDatabase(core, { readonly: true });
  try {
    return await runImport({ ...plan, dryRun: true }, storeDryRunImportSink(reader, plan.client));
  } finally {
    reader.close();
  }
}
