// The review → promote methods the Memory screen calls (confirm, discard, prepare, approve,
// promote), shaped as MEMORY.md's "Interfaces" contract. A host that does not declare one yet
// answers with an error that says so, instead of the screen failing with a TypeError.
import type { Application } from '../../api/application.js';
import { CmError } from '../../errors.js';

export type PromotionScope = 'project' | 'user';

export interface PlanFile {
  /** Relative to the scope's memory root. */
  path: string;
  entryId: string;
  action: 'create' | 'update';
  /** The target's git blob OID when the plan was made; null for a new file. */
  targetBlobHash: string | null;
  sanitizedContentDigest: string;
  bytes: number;
  /** pending until promote reaches it; skipped: it held the approved bytes already; drifted: it changed since prepare. */
  state: 'pending' | 'written' | 'skipped' | 'drifted';
  findings: Array<{ line: number; column: number; rule: string; severity: 'block' | 'warn'; excerpt: string }>;
}

export interface PreparedPlan {
  planId: string;
  planDigest: string;
  status: 'generated' | 'approved' | 'applying' | 'applied' | 'voided';
  scope: PromotionScope;
  files: PlanFile[];
  diff: string;
  /** Why a voided plan was voided (a drifted target, a candidate that changed). */
  voidReason: string | null;
}

export type PromoteResult = PreparedPlan & {
  sync: { generation: number; coverage: 'complete' | 'partial'; entries: number } | null;
};

export interface PromotionMethods {
  memoryConfirm(request: { candidateId: string; statementId: string; cwd: string }): Promise<unknown>;
  memoryDiscard(request: { candidateId: string; cwd: string }): Promise<unknown>;
  memoryPrepare(request: { candidateIds: string[]; scope: PromotionScope; cwd: string }): Promise<PreparedPlan>;
  memoryPlan(request: { planId: string }): Promise<PreparedPlan>;
  memoryApprove(request: { planId: string; digest: string }): Promise<PreparedPlan>;
  memoryPromote(request: { planId: string }): Promise<PromoteResult>;
}

const COMMAND_FOR: Record<keyof PromotionMethods, string> = {
  memoryConfirm: 'memory confirm',
  memoryDiscard: 'memory discard',
  memoryPrepare: 'memory prepare',
  memoryPlan: 'memory plan',
  memoryApprove: 'memory approve',
  memoryPromote: 'memory promote',
};

/** The methods of `app`, each refusing with a clear error when this host does not offer it. */
export function promotionMethods(app: Application): PromotionMethods {
  const methods = {} as Record<keyof PromotionMethods, (request: unknown) => Promise<unknown>>;
  for (const name of Object.keys(COMMAND_FOR) as (keyof PromotionMethods)[]) {
    methods[name] = async (request) => {
      const method = (app as unknown as Record<string, unknown>)[name];
      const missing = () =>
        new CmError(
          'internal',
          `This common-memory host does not offer "${COMMAND_FOR[name]}" yet; update common-memory and restart the host.`,
        );
      if (typeof method !== 'function') throw missing();
      try {
        return await (method as (request: unknown) => Promise<unknown>).call(app, request);
      } catch (error) {
        // A deferred application (the in-process host still starting) resolves every name; an
        // undeclared one fails inside it with a TypeError, which is the same "not offered".
        if (error instanceof TypeError) throw missing();
        throw error;
      }
    };
  }
  return methods as unknown as PromotionMethods;
}
