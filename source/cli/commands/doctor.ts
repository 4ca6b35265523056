// `doctor`: the consistency self-check over a read-only connection (works beside a running host).
import { existsSync } from 'node:fs';
import { checkStores } from '../../client/doctor.js';
import { CmError, EXIT } from '../../errors.js';
import { homeReadProblem, storeFiles } from '../../home.js';
import type { Output } from '../output.js';

export async function runDoctorCommand(home: string, out: Output): Promise<number> {
  if (!existsSync(storeFiles(home).core))
    throw homeReadProblem(home) ?? new CmError('not_found', `No store in ${home} yet; nothing to check.`);
  const violations = checkStores(home);
  out.result({ consistent: violations.length === 0, violations }, () =>
    violations.length === 0
      ? `store in ${home} is consistent`
      : violations.map((v) => `violation ${v.check}: ${v.detail}`).join('\n'),
  );
  return violations.length === 0 ? EXIT.ok : EXIT.inconsistent;
}
