// kill -9 at three representative steps of a promotion (after approve, after a file, inside the
// closing transaction) and a restart; test/stress/promote-crash.test.ts runs every step, a host included.
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { EVERY_STEP, runPromotionDrill } from '../support/promotion-drill.js';

after(() => c.closeStores());

describe('a promotion killed with kill -9', () => {
  it('after approve, after a file, inside the closing transaction: each file untouched or exactly the approved bytes, the plan finishes, nothing written twice', async () => {
    await runPromotionDrill(
      EVERY_STEP.filter(
        (step) =>
          ['memoryApprovePlan.afterCommit', 'memoryFinishPromotion.beforeCommit'].includes(step.fault) ||
          (step.fault === 'promote.afterFile.1' && !step.host),
      ),
    );
  });
});
