// kill -9 at every step of a promotion — after approve, after the plan turns applying, after each
// file, before the closing transaction, inside it and after it, and a host killed after a file —
// then a restart (a command holding the lease, or the host starting again).
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { EVERY_STEP, runPromotionDrill } from '../support/promotion-drill.js';

after(() => c.closeStores());

describe('a promotion killed at every step', () => {
  it('resumes from the journal: each file untouched or exactly the approved bytes, the plan finishes, nothing written twice', async () => {
    await runPromotionDrill(EVERY_STEP);
  });
});
