// A child process that applies a promotion plan file by file, as the promotion journal does, and
// kills itself with SIGKILL at a chosen point: `CM_KILL_AT=rename:<i>` (file i's temporary file is
// durable, the rename has not happened) or `after:<i>` (file i is applied). Prints one JSON line
// per step. Usage: node --import tsx apply-plan-child.ts <plan.json>
import { readFileSync } from 'node:fs';
import {
  applyPlanFile,
  driftedTargets,
  type PromotionScope,
  syncPlanDirectories,
} from '../../source/memory/promotion-plan.js';
import { memoryRoot } from '../../source/effects/safe-files.js';

interface ChildPlan {
  anchor: string;
  rootPath: string;
  scope: PromotionScope;
  files: Array<{ path: string; targetBlobHash: string | null; contentBase64: string; sanitizedContentDigest: string }>;
}

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ChildPlan;
const [killWhere, killIndex] = (process.env['CM_KILL_AT'] ?? ':').split(':');
const kill = () => process.kill(process.pid, 'SIGKILL');
const root = memoryRoot(plan.anchor, plan.rootPath);
const files = plan.files.map((f) => ({ ...f, content: Buffer.from(f.contentBase64, 'base64') }));

const drifted = driftedTargets(root, { files });
if (drifted.length > 0) {
  console.log(JSON.stringify({ drifted }));
  process.exit(0);
}
for (const [index, file] of files.entries()) {
  const here = String(index) === killIndex;
  const result = applyPlanFile(root, plan.scope, file, {
    beforeRename: here && killWhere === 'rename' ? kill : undefined,
  });
  console.log(JSON.stringify({ index, ...result }));
  if (here && killWhere === 'after') kill();
}
syncPlanDirectories(root, { files });
console.log(JSON.stringify({ done: true }));
