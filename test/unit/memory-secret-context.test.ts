// Keyword-context decisions of the secret lint: weak passwords under a password key, values with a
// documented prefix but the wrong shape, the line formats that name a value (env entries, tables,
// fish, Gradle), and tokens wrapped by string concatenation or a YAML folded scalar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lintText } from '../../source/memory/secret-lint.js';

const rules = (text: string) => lintText(text).map((finding) => `${finding.rule}/${finding.severity}`);
const blocks = (text: string) => lintText(text).some((finding) => finding.severity === 'block');
// Token prefixes are joined at run time so the file never holds a string shaped like a live token.
const npm = ['np', 'm_'].join('');
const gh = ['gh', 'p_'].join('');

describe('weak passwords under a password key', () => {
  it('blocks a dictionary word given to a password key', () => {
    assert.deepEqual(rules('BACKUP_PASS=pumpkin'), ['keyword-secret/block']);
    assert.deepEqual(rules('db_password: "walrus"'), ['keyword-secret/block']);
  });
  it('does not block placeholders, references or settings given to a password key', () => {
    for (const text of [
      'ADMIN_PASS=changeme',
      'password: <password>',
      'DB_PASSWORD=${DB_PASSWORD}',
      'password = xxxx',
      'password: example',
      'password: password',
      'password: boolean',
      'PASSWORD_POLICY=strong',
    ])
      assert.deepEqual(rules(text), [], text);
  });
  it('a short word under any other key is still not a secret', () => {
    assert.deepEqual(rules('CACHE_TOKEN=walrus'), []);
  });
  it('blocks a password named in a sentence, weak ones too, but not a feature of passwords', () => {
    assert.ok(blocks('The lab box: log in as root with password marmalade, it is wiped weekly.'));
    assert.ok(blocks('Connect using password tulip42 on the test rig.'));
    assert.equal(blocks('Sign in with password authentication, or use SSO.'), false);
    assert.equal(blocks('We log in with password managers these days.'), false);
    assert.equal(blocks('Log in with password reset and then choose a new one.'), false);
  });
  it('reads "the pass is" as a password in prose', () => {
    assert.ok(blocks('The router pass is ochre-tiger-27-moss since the reset.'));
    assert.equal(blocks('The boarding pass is on the desk.'), false);
  });
});

describe('documented prefixes with the wrong shape', () => {
  it('does not report a value that carries a token prefix but not the token format', () => {
    assert.deepEqual(rules(`"npm_token": "${npm}Q7wLr2nBx9TfKe4Mp"`), []);
    assert.deepEqual(rules(`GITHUB_TOKEN=${gh}Zr8Kq2Wm5Nx`), []);
  });
  it('still blocks the value when it has the documented shape', () => {
    assert.deepEqual(rules(`"npm_token": "${npm}Q7wLr2nBx9TfKe4MpA1sD3fG5hJ7kL9zX0cV"`), ['npm-token/block']);
  });
});

describe('line formats that name a value', () => {
  it('reads a Kubernetes env entry over two lines', () => {
    assert.ok(blocks('env:\n  - name: LEDGER_API_KEY\n    value: "q8Lm2Vx7Rt4Nw9Kp3Zs6"'));
    assert.ok(blocks('- { name: LEDGER_SECRET, value: q8Lm2Vx7Rt4Nw9Kp3Zs6 }'));
    assert.equal(blocks('env:\n  - name: LEDGER_KEY_ID\n    value: "q8Lm2Vx7Rt4Nw9Kp3Zs6"'), false);
    assert.equal(blocks('env:\n  - name: LOG_LEVEL\n    value: "q8Lm2Vx7Rt4Nw9Kp3Zs6"'), false);
  });
  it('reads a Markdown table row', () => {
    assert.ok(blocks('| LEDGER_TOKEN | `5c1f0e9a7b3d2c8e4f6a1b0d9c7e3f2a` | rotated monthly |'));
    assert.equal(blocks('| LEDGER_TOKEN_URL | `https://ledger.test/token` | where to ask |'), false);
    assert.equal(blocks('| build | `5c1f0e9a7b3d2c8e4f6a1b0d9c7e3f2a` | last green commit |'), false);
  });
  it('reads fish and csh assignments', () => {
    assert.ok(blocks('set -gx LEDGER_PAT Vq7Lm2Xr9Tn4Kw8Zp3'));
    assert.ok(blocks('setenv LEDGER_SECRET Vq7Lm2Xr9Tn4Kw8Zp3'));
    assert.equal(blocks('set -gx LEDGER_HOST ledger7.internal'), false);
  });
  it('reads Gradle settings with a quoted value', () => {
    assert.ok(blocks('storePassword "Tz4kQ9mWr2Lp"'));
    assert.ok(blocks("password 'Tz4kQ9mWr2Lp'"));
    assert.equal(blocks('storeFile file("release.keystore")'), false);
  });
  it('reads a libpq password in a connection string, unless it is a dotted name', () => {
    assert.ok(blocks('psql "host=db.local dbname=ops user=ops password=k.Qx7vRmT2pLw9"'));
    assert.deepEqual(rules('password = settings.database.password'), []);
  });
  it('reads htpasswd with options between -b and the file', () => {
    assert.ok(blocks('htpasswd -b -c /etc/nginx/.users deploy Wq7-lantern-plum'));
  });
  it('reads an .npmrc _auth of user:password and ignores one that is not', () => {
    const auth = Buffer.from('builder:Quill7-orchard').toString('base64');
    assert.ok(blocks(`_auth=${auth}\nalways-auth=true`));
    assert.deepEqual(rules(`_auth=${Buffer.from('just some text').toString('base64')}`), []);
  });
});

describe('tokens wrapped over lines', () => {
  const body = 'Kq7Lm2Vx9Rt4Nw8Zp3Ys6Bc1Df5Gh0Jk2Lm4N';
  it('joins a string concatenated over a line break', () => {
    const text = `const t = "${gh}${body.slice(0, 18)}"\n    + "${body.slice(18, 36)}";`;
    const finding = lintText(text).find((f) => f.rule === 'github-token');
    assert.ok(finding, JSON.stringify(lintText(text)));
    assert.equal(finding.severity, 'block');
    assert.equal(finding.transform, 'wrapped');
  });
  it('does not join two ordinary strings', () => {
    assert.deepEqual(rules('const msg = "the build failed"\n  + "see the log";'), []);
  });
  it('joins a YAML folded scalar', () => {
    const token = ['dt0', 'c01.'].join('') + 'A1B2C3D4E5F6G7H8J9K0L1M2';
    const secret = 'Q'.repeat(0) + 'N3P4Q5R6S7T8U9V0W1X2Y3Z4A5B6C7D8E9F0G1H2J3K4L5M6N7P8Q9R0S1T2U3V4';
    const text = `api_token: >-\n    ${token}\n    .${secret}`;
    assert.ok(
      lintText(text).some((f) => f.rule === 'dynatrace-token' && f.severity === 'block'),
      JSON.stringify(lintText(text)),
    );
  });
});
