// Codex reads untrusted hooks and silently does not run them: with our hooks in a Codex home and
// no Codex event since they were written, status and the Dashboard say so with the trust step.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { codexTrust } from '../../source/hosts/codex/install.js';
import { applyInstall, planInstall, silentHooks, silentHooksText } from '../../source/hosts/integrations.js';

describe('Codex hooks that never ran', () => {
  it('are reported with the trust step until an event arrives after they were written', () => {
    const codexHome = mkdtempSync(join(tmpdir(), 'codex-untrusted-'));
    const dirs = { codexHome };
    assert.deepEqual(silentHooks(dirs, { codex: null }), [], 'no hooks installed: nothing to say');
    applyInstall(planInstall('codex', { configDir: codexHome }));
    const [silent] = silentHooks(dirs, { codex: null });
    assert.ok(silent, 'installed and no Codex event ever: reported');
    assert.equal(silent.trustRecorded, false);
    const text = silentHooksText(silent);
    assert.match(text, /no Codex event ever arrived/);
    assert.match(text, /config\.toml does not trust them yet/);
    assert.match(text, /Trust all and continue/);
    // An event older than the hooks file does not count; one after it shows the hooks run.
    assert.equal(silentHooks(dirs, { codex: '2000-01-01T00:00:00.000Z' }).length, 1);
    assert.deepEqual(silentHooks(dirs, { codex: new Date(Date.now() + 1000).toISOString() }), []);
    // Trust recorded in config.toml for every key of ours is said as such.
    const keys = planInstall('codex', { configDir: codexHome });
    const trusted = (silentHooks(dirs, { codex: null })[0] as typeof silent).path;
    assert.ok(trusted.endsWith('hooks.json'));
    const config = join(codexHome, 'config.toml');
    writeFileSync(
      config,
      codexTrust(keys)
        .keys.map((key: string) => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "sha256:x"\n`)
        .join(''),
      { flag: 'a' },
    );
    assert.equal(silentHooks(dirs, { codex: null })[0]?.trustRecorded, true);
  });
});
