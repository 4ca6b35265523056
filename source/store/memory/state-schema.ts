// memory-state.sqlite: the memory half's own store (seed 004 §2), separate from core.sqlite so
// that resetting or losing one never touches the other. Digests are lowercase hex TEXT; absolute
// paths (repository roots) exist only in this file. Migrated like core.sqlite: the version lives
// in PRAGMA user_version, one step per BEGIN IMMEDIATE (source/store/migrations.ts).
// Each step is its own file in schema/ (one per version, never edited once released).
import type { Schema } from '../migrations.js';
import { migrateToFoundation } from './schema/v1-foundation.js';
import { migrateToApprovedScope } from './schema/v2-approved-scope.js';
import { migrateToSnapshotOrder } from './schema/v3-snapshot-order.js';
import { migrateToPromotionJournal } from './schema/v4-promotion-journal.js';
import { migrateToExternalRunners } from './schema/v5-external-runners.js';
import { migrateToRecallTerms } from './schema/v6-recall-terms.js';
import { migrateToEntryCounts } from './schema/v7-entry-counts.js';
import { migrateToPooledByContent } from './schema/v8-pooled-by-content.js';
import { migrateToEntryAnchors } from './schema/v9-entry-anchors.js';
import { migrateToRetirementFiles } from './schema/v10-retirement-files.js';
import { migrateToEntryUsefulness } from './schema/v11-entry-usefulness.js';
import { migrateToConsolidationPatches } from './schema/v12-consolidation-patches.js';
import { migrateToApprovedScenes } from './schema/v13-approved-scenes.js';
import { migrateToAppliedPatches } from './schema/v14-applied-patches.js';
import { migrateToApprovedDoctrine } from './schema/v15-approved-doctrine.js';

export const memoryStateSchema: Schema = {
  name: 'memory-state.sqlite',
  steps: [
    migrateToFoundation,
    migrateToApprovedScope,
    migrateToSnapshotOrder,
    migrateToPromotionJournal,
    migrateToExternalRunners,
    migrateToRecallTerms,
    migrateToEntryCounts,
    migrateToPooledByContent,
    migrateToEntryAnchors,
    migrateToRetirementFiles,
    migrateToEntryUsefulness,
    migrateToConsolidationPatches,
    migrateToApprovedScenes,
    migrateToAppliedPatches,
    migrateToApprovedDoctrine,
  ],
};
