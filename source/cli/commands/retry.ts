// Writes whose input carries an operation ID chosen before the first attempt: a lost connection
// (the host died or restarted mid-request) is retried with the same input, so the answer is the
// original receipt when the first attempt was committed — never a duplicate.
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import type { Application } from '../../api/application.js';

const ATTEMPTS = 3;

export async function writeWithRetry<T>(
  home: string,
  run: (app: Application) => Promise<T>,
  need: 'write' | 'host' = 'write',
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const connection = await connect(home, need);
    try {
      return await run(connection.app);
    } catch (error) {
      if (!(error instanceof CmError && error.code === 'host_unreachable') || attempt >= ATTEMPTS) throw error;
      await sleep(200 * attempt);
    } finally {
      await connection.close();
    }
  }
}
