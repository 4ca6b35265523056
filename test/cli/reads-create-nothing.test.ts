import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { runCli, tempHome } from '../support/cli.js';

const UUID = '00000000-0000-4000-8000-000000000000';

describe('reads on a home without a store', () => {
  const reads: string[][] = [
    ['log'],
    ['timeline'],
    ['status'],
    ['agent', 'list'],
    ['message', UUID],
    ['operation', 'op-1'],
  ];
  for (const args of reads) {
    it(`${args.join(' ')} says there is no store, exits 6 and creates nothing`, async () => {
      const home = tempHome('no-store');
      const result = await runCli([...args, '--home', home]);
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /No store in .* yet/);
      assert.equal(
        existsSync(home),
        false,
        `the data home was created: ${existsSync(home) ? readdirSync(home).join(', ') : ''}`,
      );
      const json = await runCli([...args, '--json', '--home', home]);
      assert.equal(json.code, 6);
      assert.equal(JSON.parse(json.stderr).error.code, 'not_found');
      assert.deepEqual(readdirSync(dirname(home)), [], 'nothing beside the home either');
    });
  }

  it('a note written without a host is the only row of a fresh journal; host.lease is 0600', async () => {
    const home = tempHome('local-lease');
    assert.equal((await runCli(['note', 'first', '--home', home])).code, 0);
    assert.equal(statSync(storeFiles(home).lease).mode & 0o777, 0o600);
    const log = JSON.parse((await runCli(['log', '--json', '--home', home])).stdout) as { rows: { kind: string }[] };
    assert.deepEqual(
      log.rows.map((row) => row.kind),
      ['client.note'],
    );
    for (const name of readdirSync(home))
      assert.equal(statSync(`${home}/${name}`).mode & 0o077, 0, `${name} is readable by others`);
  });
});
