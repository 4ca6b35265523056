// The review → promote methods the Memory screen calls (confirm, discard, prepare, approve,
// promote), shaped as MEMORY.md's "Interfaces" contract. A host that does not declare one yet
// answers with an error that says so, instead of the screen failing with a TypeError.
import type { Application } from '../../api/application.js';
import { CmError } from '../../errors.js';

export type PromotionScope = 'project' | 'user';

export interface PlanFile {
  path: string;
  /** The target's git blob OID when the plan was made; null for a new file. */
  targetBlobHash: string | null;
  sanitizedContentDigest: string;
}

export interface PreparedPlan {
  planId: string;
  planDigest: string;
  files: PlanFile[];
  diff: string;
  scope?: PromotionScope | undefined;
}

export interface PromotedFile {
  path: string;
  /** What happened to the file, e.g. written, skipped (already the approved bytes), drifted. */
  outcome?: string | undefined;
  [field: string]: unknown;
}

export interface PromoteResult {
  planId: string;
  status: 'applied' | 'voided';
  files: PromotedFile[];
  /** Why a voided plan was voided, when the host says. */
  reason?: string | undefined;
  [field: string]: unknown;
}

export interface PromotionMethods {
  memoryConfirm(request: { candidateId: string; statementId: string; cwd: string }): Promise<unknown>;
  memoryDiscard(request: { candidateId: string; cwd: string }): Promise<unknown>;
  memoryPrepare(request: { candidateIds: string[]; scope: PromotionScope; cwd: string }): Promise<PreparedPlan>;
  memoryApprove(request: { planId: string; digest: string; cwd: string }): Promise<unknown>;
  memoryPromote(request: { planId: string; cwd: string }): Promise<PromoteResult>;
}

const COMMAND_FOR: Record<keyof PromotionMethods, string> = {
  memoryConfirm: 'memory confirm',
  memoryDiscard: 'memory discard',
  memoryPrepare: 'memory prepare',
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
