// Disguised secrets: each disguise of a token is found, reported at the span of the text as written
// that carries it (so masking that span hides every character of it, invisible ones included), with
// the transform named and the excerpt masked. Tokens are synthetic (a seeded PRNG body and a prefix
// written in two halves), so this file holds nothing a scanner would take for a live token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFinding, lintText, type SecretFinding } from '../../source/memory/secret-lint.js';
import { normaliseText } from '../../source/memory/secret-normalise.js';
import { runCli, tempHome } from '../support/cli.js';
import { expandTemplate } from '../support/secret-corpus.js';

const githubToken = (seed: string) => expandTemplate(seed, '{{cat:gh:p_}}{{rand:base62:36}}');
const npmToken = (seed: string) => expandTemplate(seed, '{{cat:np:m_}}{{rand:base62:36}}');

/** The one finding that covers [start, end) of `text`; fails when none does. */
function findingOver(text: string, start: number, end: number): SecretFinding {
  const findings = lintText(text);
  const finding = findings.find((f) => f.offset <= start && f.offset + f.length >= end);
  assert.ok(
    finding,
    `no finding covers ${start}..${end} of ${JSON.stringify(text)}: ${JSON.stringify(findings.map(({ rule, offset, length, transform }) => ({ rule, offset, length, transform })))}`,
  );
  return finding;
}

/** Checks every promise the finding makes about a secret hidden in text[start, end). */
function assertCovers(
  text: string,
  start: number,
  end: number,
  secret: string,
  expected: { rule: string; transform: string },
): SecretFinding {
  const finding = findingOver(text, start, end);
  assert.equal(finding.rule, expected.rule);
  assert.equal(finding.severity, 'block');
  assert.ok(finding.transform?.split('+').includes(expected.transform), `transform ${finding.transform}`);
  // The span is the disguise, not the line: at most a few characters of context either side.
  assert.ok(finding.offset >= start - 16 && finding.offset + finding.length <= end + 16, JSON.stringify(finding));
  // Position of the original text.
  const before = text.slice(0, finding.offset).split('\n');
  assert.deepEqual([finding.line, finding.column], [before.length, before.at(-1)!.length + 1]);
  // Masked: the excerpt is at most the first four characters of the secret and its length.
  assert.ok(!finding.excerpt.includes(secret.slice(4, 10)), finding.excerpt);
  assert.match(finding.excerpt, /^.{0,4}…\[\d+ chars\]$/u);
  // Masking the original by offset/length leaves nothing of the secret for the lint (or a reader) to find.
  const masked = `${text.slice(0, finding.offset)}${'#'.repeat(finding.length)}${text.slice(finding.offset + finding.length)}`;
  assert.deepEqual(
    lintText(masked).filter((f) => f.severity === 'block'),
    [],
  );
  assert.ok(!normaliseText(masked).text.includes(secret.slice(4, 14)));
  return finding;
}

const fullWidth = (text: string) =>
  [...text].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');

describe('disguised tokens are found at their original span', () => {
  it('wrapped over two lines', () => {
    const token = githubToken('wrap');
    const head = 'export GITHUB_TOKEN=';
    const text = `${head}${token.slice(0, 22)}\n    ${token.slice(22)}\nnext line`;
    assertCovers(text, head.length, head.length + token.length + 5, token, {
      rule: 'github-token',
      transform: 'wrapped',
    });
  });

  it('wrapped with a trailing backslash (shell continuation)', () => {
    const token = npmToken('wrap-backslash');
    const head = 'npm config set //registry/:_authToken ';
    const text = `${head}${token.slice(0, 12)}\\\n${token.slice(12)} && echo done`;
    assertCovers(text, head.length, head.length + token.length + 2, token, { rule: 'npm-token', transform: 'wrapped' });
  });

  it('a zero-width space inside', () => {
    const token = githubToken('zwsp');
    const text = `token ${token.slice(0, 10)}\u200B${token.slice(10)} for CI`;
    assertCovers(text, 6, 6 + token.length + 1, token, { rule: 'github-token', transform: 'zero-width' });
  });

  it('a soft hyphen inside', () => {
    const token = githubToken('shy');
    const text = `use ${token.slice(0, 30)}\u00AD${token.slice(30)}`;
    assertCovers(text, 4, 4 + token.length + 1, token, { rule: 'github-token', transform: 'zero-width' });
  });

  it('Unicode tag characters and a bidi control inside', () => {
    const token = npmToken('tags');
    const text = `npm ${token.slice(0, 8)}\u{E0041}\u{E0042}${token.slice(8, 20)}\u202E${token.slice(20)}.`;
    assertCovers(text, 4, 4 + token.length + 5, token, { rule: 'npm-token', transform: 'zero-width' });
  });

  it('full-width letters', () => {
    const token = githubToken('fullwidth');
    const text = `こんにちは ${fullWidth(token)} です`;
    assertCovers(text, 6, 6 + token.length, token, { rule: 'github-token', transform: 'nfkc' });
  });

  it('one character as an HTML entity', () => {
    const token = githubToken('entity');
    const entity = `&#${token.charCodeAt(15)};`;
    const text = `<p>key: ${token.slice(0, 15)}${entity}${token.slice(16)}</p>`;
    assertCovers(text, 8, 8 + token.length - 1 + entity.length, token, {
      rule: 'github-token',
      transform: 'html-entity',
    });
  });

  it('one character as a hexadecimal HTML entity', () => {
    const token = npmToken('entity-hex');
    const entity = `&#x${token.charCodeAt(0).toString(16)};`;
    const text = `${entity}${token.slice(1)}`;
    assertCovers(text, 0, token.length - 1 + entity.length, token, { rule: 'npm-token', transform: 'html-entity' });
  });

  it('one character as a URL escape', () => {
    const token = githubToken('url-escape');
    const escaped = `%${token.charCodeAt(20).toString(16).toUpperCase()}`;
    const text = `https://example.test/callback?t=${token.slice(0, 20)}${escaped}${token.slice(21)}&x=1`;
    const start = text.indexOf('=') + 1;
    assertCovers(text, start, start + token.length + 2, token, { rule: 'github-token', transform: 'url-escape' });
  });

  it('JSON escapes', () => {
    const token = githubToken('json-escape');
    const escaped = `\\u00${token.charCodeAt(0).toString(16)}${token.slice(1, 9)}\\x${token.charCodeAt(9).toString(16)}${token.slice(10)}`;
    const text = `{"note": "${escaped}"}`;
    assertCovers(text, 10, 10 + escaped.length, token, { rule: 'github-token', transform: 'json-escape' });
  });

  it('base64 of its KEY=value line (a Kubernetes Secret)', () => {
    const token = githubToken('k8s');
    const line = `GITHUB_TOKEN=${token}`;
    const encoded = Buffer.from(line).toString('base64');
    const head = 'apiVersion: v1\nkind: Secret\ndata:\n  env: ';
    const text = `${head}${encoded}\n`;
    // The base64 characters that carry the token's bytes (13..53 of the line).
    const from = head.length + Math.floor(13 / 3) * 4;
    const to = head.length + encoded.replace(/=+$/, '').length;
    const finding = assertCovers(text, from, to, token, { rule: 'github-token', transform: 'base64' });
    assert.equal(finding.excerpt, 'ghp_…[40 chars]');
  });

  it('hex of its KEY=value line', () => {
    const token = npmToken('hex');
    const line = `NPM_TOKEN=${token}`;
    const hex = Buffer.from(line).toString('hex');
    const text = `blob ${hex} end`;
    assertCovers(text, 5 + 10 * 2, 5 + hex.length, token, { rule: 'npm-token', transform: 'hex' });
  });

  it('two disguises at once: zero-width inside a wrapped token', () => {
    const token = githubToken('two');
    const text = `x ${token.slice(0, 5)}\u200C${token.slice(5, 25)}\n  ${token.slice(25)} y`;
    const finding = assertCovers(text, 2, 2 + token.length + 4, token, { rule: 'github-token', transform: 'wrapped' });
    assert.equal(finding.transform, 'zero-width+wrapped');
  });

  it('prose and code broken at a line end are not joined: only what looks like a token piece is', () => {
    for (const text of [
      'as the README explains\ncommon-memory install pi',
      '```sh\nCOMMON_MEMORY_HOME=$(mktemp -d)',
      'better-sqlite3\nships prebuilt binaries for these platforms',
    ])
      assert.equal(normaliseText(text).joined, false, text);
    const token = githubToken('joined');
    assert.equal(normaliseText(`${token.slice(0, 20)}\n${token.slice(20)}`).joined, true);
  });

  it('the view says which transforms it applied (invisible characters were there)', () => {
    const view = normaliseText('plain\u200B text with &amp; and\u00AD more');
    assert.equal(view.text, 'plain text with & and more');
    assert.equal(view.transforms, 'zero-width+html-entity');
    assert.equal(normaliseText('nothing to take off').transforms, undefined);
  });

  it('a finding on the text as written has no transform, and a disguise-free text is unchanged', () => {
    const token = githubToken('plain');
    const [finding] = lintText(`token ${token}\nnext line`);
    assert.equal(finding!.transform, undefined);
    assert.equal(finding!.length, token.length);
    assert.equal(normaliseText(`token ${token} and more,\n  on the next line`).changed, false);
  });
});

describe('secrets in prose and DSNs', () => {
  const password = expandTemplate('prose', '{{rand:base62:5}}#{{rand:base62:6}}!');

  for (const [name, sentence] of [
    ['a sentence', `the password for the build box is ${password}, do not share it`],
    ['a sentence with a colon', `Staging DB password: ${password}`],
    ['"login with password …"', `login as deploy with password ${password} on the bastion`],
    ['passphrase', `the passphrase was ${password}.`],
    ['key: value', `pw: ${password}`],
    ['an api key in prose', `the api key for the weather service is ${password}`],
    ['credentials', `credentials are set to "${password}"`],
    ['a key name ending in _KEY', `ALGOLIA_ADMIN_KEY => '${password}',`],
    ['an env name before "for"', `Note: DB_PASSWORD for staging is ${password} for now.`],
    ['an arrow', `- SMTP_PASSWORD → ${password}`],
    ['the value first', `log in as admin with ${password} as the password`],
    ['the value before "when … passphrase"', `type ${password} when gpg asks for the passphrase`],
    ['a user and password with a slash', `the kiosk login is admin / ${password}.`],
    ['Japanese', `パスワードは ${password} です。`],
    ['German', `Das Passwort ist ${password}.`],
    ['an XML element', `<ssh_passphrase>${password}</ssh_passphrase>`],
    ['an XML key/value pair', `<add key="SMTP_PASSWORD" value="${password}" />`],
    ['an HTML input', `<input type="hidden" name="api_secret" value="${password}">`],
    ['mysql -p', `mysql -u root -p${password} -h 127.0.0.1 shop`],
    ['curl -u', `curl -u ci-bot:${password} https://nexus.internal.test/`],
    ['Redis AUTH', `The instance needs AUTH ${password} before any command.`],
    ['"set … password to …"', `I set the staging admin password to ${password} yesterday`],
    ['a parenthesis before the colon', `DB password (prod): ${password}`],
    ['docker login -p', `docker login -u bot -p ${password} registry.example.test`],
    ['Spanish', `La contraseña es ${password}`],
    ['a wifi key', `the wifi key is ${password}`],
  ] as const) {
    it(`finds a password in ${name}`, () => {
      const start = sentence.indexOf(password);
      const finding = findingOver(sentence, start, start + password.length);
      assert.equal(finding.severity, 'block');
      assert.equal(sentence.slice(finding.offset, finding.offset + finding.length), password);
      assert.ok(!finding.excerpt.includes(password.slice(0, 6)));
    });
  }

  for (const [name, dsn, secret] of [
    ['postgres', 'postgres://u:p@db.internal/app', 'p'],
    ['redis with no user', `redis://:${password}@cache.internal:6379/0`, password],
    ['mongodb+srv', `mongodb+srv://svc:${password}@cluster0.example.net/db`, password],
    ['a JDBC query string', `jdbc:postgresql://db/app?user=svc&password=${password}`, password],
    ['an ADO connection string', `Server=db;User Id=svc;Password=${password};`, password],
  ] as const) {
    it(`finds the password of a DSN: ${name}`, () => {
      const start = dsn.indexOf(`${secret}@`) === -1 ? dsn.indexOf(secret) : dsn.indexOf(`${secret}@`);
      const finding = findingOver(dsn, start, start + secret.length);
      assert.equal(finding.severity, 'block');
      assert.equal(dsn.slice(finding.offset, finding.offset + finding.length), secret);
    });
  }
});

describe('placeholders and prose without a secret', () => {
  for (const text of [
    'password: <password>',
    'the password is <password>',
    'password = changeme',
    'DB_PASSWORD=${DB_PASSWORD}',
    'token: xxx',
    'api_key: xxxxxxxxxxxxxxxxxxxxxxxx',
    'secret: EXAMPLE',
    'the token is your-token-here',
    'password: ****',
    'postgres://user:<password>@localhost/db',
    'postgres://user:${PGPASSWORD}@db/app',
    'mysql://root:password@db/app',
    expandTemplate('aws-doc-id', 'aws_access_key_id = {{cat:AK:IA}}IOSFODNN7EXAMPLE'),
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    expandTemplate('xs', 'GITHUB_TOKEN={{cat:gh:p_}}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
    'the password is stored in the vault and rotated every 90 days',
    'the token is valid for 3600 seconds',
    'the password must be at least 12 characters long',
    'the api key is in 1Password under "weather"',
    'the secret is hashed with sha256-crypt before it is stored',
    'the password for the build box is in the team vault',
    'token is expired, run login again',
    'credentials are read from ~/.aws/credentials',
    'the password was reset to the default by IT',
    'password hashing uses argon2id with 64 MiB',
    'the token for the deploy job is GITHUB_TOKEN',
    "readSession: { sessionKey: 'no-such-session' },",
    "claimToken: 'not-the-token',",
    "* - 'bypass': `--dangerously-bypass-hook-trust` on every run",
    'password: process.env.STRIPE_KEY',
    'aws_secret_access_key: sk-ant-api03-...',
    'api_key: "abc123def456..."',
    'STRIPE_PUBLISHABLE_KEY=pk_live_51Habc123DEF456ghi789JKL',
    'db_password: ENC[AES256_GCM,data:3btSSgg9B5Cp5qSiqJ/nZe4Z,iv:fy009UvWwJ00+qa83kj5gXoB7hyb8==,type:str]',
    'mysql -u root -p$MYSQL_PWD shop',
    'the token is refreshed by the consumer group every hour',
    'passwort: erforderlich',
    'the password must contain a digit and a symbol',
    'password: ${{ secrets.DB_PASSWORD }}',
    'password=$(cat /run/secrets/db_password)',
    'the token is passed via the X-Auth-Token header',
    'the secret key is generated at startup with crypto.randomBytes(32)',
    'password hash: $2b$12$KIXQJjHTkOV3wqRkzEg2OeY0sJZ7rX4VJ2x0nE1Ff6q3yOq1m1Z2a',
    'the password to production is kept by the on-call',
    'the hash of the password is 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a48',
    'token_hash = "594e519ae499312b29433b7dd8a97ff068defcba9755b6d5d00e84c524d67b06"',
    'recaptcha site key 6LcTiIfAPfRe8m3TvhcjT_fKJgwI06WJ1mahA1vmQ',
    'password: op://Engineering/db/password',
    'API_TOKEN=vault:secret/data/ci#token',
    'the api key is arn:aws:secretsmanager:eu-west-1:123456789012:secret:maps-AbCdEf',
    '"client_secret": "projects/p/secrets/oauth/versions/latest"',
    'password: p@ssw0rd',
    'API_TOKEN=test1234',
    'client_secret: aaaaaaaaaaaaaaaaaaaa',
  ]) {
    it(`finds nothing in ${JSON.stringify(text)}`, () => assert.deepEqual(lintText(text), []));
  }
});

describe('a segment that decodes to one bare random-looking value is that value encoded', () => {
  const value = expandTemplate('bare', '{{rand:base62:6}}#{{rand:digits:4}}{{rand:base62:6}}');
  for (const [name, encoded] of [
    ['base64', Buffer.from(value).toString('base64')],
    ['hex', Buffer.from(value).toString('hex')],
  ] as const) {
    it(`${name}: the whole segment, blocking, masked`, () => {
      const text = `{"payload": "${encoded}"}`;
      const finding = findingOver(text, 13, 13 + encoded.length);
      assert.equal(finding.rule, 'encoded-secret');
      assert.equal(finding.severity, 'block');
      assert.equal(finding.transform, name);
      assert.ok(!finding.excerpt.includes(value.slice(0, 6)));
    });
  }

  it('names, versions, URLs, dates, addresses, ids and settings encoded are not', () => {
    for (const plain of [
      'my-service-account-01',
      'v2.14.3-rc.1',
      'x86_64-linux-gnu',
      'AppleWebKit/537.36',
      'Mozilla/5.0',
      'https://api.example.com/v1/items',
      '2024-05-01T10:00:00Z',
      'ops+alerts1@example.com',
      '550e8400-e29b-41d4-a716-446655440000',
      'env=prod;region=eu-west-1',
      '/var/lib/app/data-01',
    ])
      for (const encoded of [Buffer.from(plain).toString('base64'), Buffer.from(plain).toString('hex')])
        assert.deepEqual(lintText(`value: ${encoded}`), [], plain);
  });
});

describe('high-entropy non-secrets stay quiet through the decoders', () => {
  it('base64 of prose, hex of prose, a SHA and a UUID', () => {
    for (const text of [
      Buffer.from('the release notes mention the password policy and the token count').toString('base64'),
      Buffer.from('plain words about nothing secret at all, just notes').toString('hex'),
      expandTemplate('sha', 'commit {{sha1:x}} and blob {{sha1:y}}'),
      expandTemplate('uuid', 'request {{uuid4}} done'),
      'integrity sha512-' + Buffer.from('not a secret, just an integrity string 1234').toString('base64'),
    ])
      assert.deepEqual(lintText(text), [], text);
  });
});

// Multi-byte text, random positions: whatever the disguise and the text around, the reported span
// covers every character of the disguised token and the excerpt never shows it.
describe('property: the reported span always covers the disguised token', () => {
  const fillers = ['é', '🙂', '中文', ' ', 'word ', '\n', 'ß', 'Ω', '—', '"', 'x'];
  type Disguise = (token: string, pick: () => number) => string;
  const disguises: [string, Disguise][] = [
    ['zero-width', (t, pick) => insertAt(t, 4 + Math.floor(pick() * (t.length - 5)), '\u200B')],
    ['zero-width', (t, pick) => insertAt(t, 4 + Math.floor(pick() * (t.length - 5)), '\u00AD\u2060')],
    ['nfkc', (t) => fullWidth(t)],
    [
      'html-entity',
      (t, pick) => {
        const i = 5 + Math.floor(pick() * (t.length - 6));
        return `${t.slice(0, i)}&#${t.charCodeAt(i)};${t.slice(i + 1)}`;
      },
    ],
    [
      'url-escape',
      (t, pick) => {
        const i = 5 + Math.floor(pick() * (t.length - 6));
        return `${t.slice(0, i)}%${t.charCodeAt(i).toString(16)}${t.slice(i + 1)}`;
      },
    ],
    ['wrapped', (t, pick) => insertAt(t, 8 + Math.floor(pick() * (t.length - 16)), '\n   ')],
  ];
  const insertAt = (text: string, at: number, piece: string) => `${text.slice(0, at)}${piece}${text.slice(at)}`;

  it('400 random texts', () => {
    let seed = 23;
    const pick = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 400; i += 1) {
      // npm tokens without a digit are not taken for tokens (the rule's own check); such a draw is a GitHub token instead.
      const npm = npmToken(`prop-${i}`);
      const token = i % 2 === 0 || !/\d/.test(npm) ? githubToken(`prop-${i}`) : npm;
      const [name, disguise] = disguises[Math.floor(pick() * disguises.length)]!;
      const hidden = disguise(token, pick);
      const around = () =>
        Array.from({ length: Math.floor(pick() * 6) }, () => fillers[Math.floor(pick() * fillers.length)]).join('');
      const before = `${around()} `;
      const text = `${before}${hidden} ${around()}`;
      const finding = findingOver(text, before.length, before.length + hidden.length);
      if (finding.transform === undefined) assert.fail(JSON.stringify({ text, name, finding }));
      assert.equal(finding.severity, 'block', text);
      assert.ok(finding.transform?.includes(name), `${name}: ${finding.transform}`);
      assert.ok(!finding.excerpt.includes(token.slice(4, 10)));
      const masked = `${text.slice(0, finding.offset)}${'#'.repeat(finding.length)}${text.slice(finding.offset + finding.length)}`;
      assert.ok(!normaliseText(masked).text.includes(token.slice(6, 14)), JSON.stringify({ text, finding }));
      // The keyword prefilter reads the views and decoded segments too: it never changes the findings.
      assert.deepEqual(lintText(text, { prefilter: false }), lintText(text));
    }
  });
});

describe('memory lint (the built CLI) reports a disguised secret masked, with its transform', () => {
  it('a zero-width space inside a token: exit 11, the transform in --json and in the line for a person', async () => {
    const token = githubToken('cli');
    const input = `notes\nci token ${token.slice(0, 12)}\u200B${token.slice(12)}\n`;
    const home = tempHome('secret-disguise-cli');
    const json = await runCli(['memory', 'lint', '-', '--json', '--home', home], { input });
    assert.equal(json.code, 11, json.stderr);
    const parsed = JSON.parse(json.stdout) as {
      findings: { rule: string; line: number; column: number; transform?: string }[];
    };
    assert.deepEqual(
      parsed.findings.map(({ rule, line, column, transform }) => ({ rule, line, column, transform })),
      [
        { rule: 'github-token', line: 2, column: 10, transform: 'zero-width' },
        // memory lint runs the poisoning lint too: the hidden character is a finding of its own (its excerpt masks the token).
        { rule: 'poison-invisible-chars', line: 2, column: 22, transform: undefined },
      ],
    );
    const human = await runCli(['memory', 'lint', '-', '--home', home], { input });
    assert.equal(human.code, 11);
    assert.match(human.stdout, /^-:2:10 block github-token ghp_…\[40 chars\] \(through zero-width\)$/m);
    for (const output of [json.stdout, human.stdout]) assert.ok(!output.includes(token.slice(4, 12)));
  });

  it('formatFinding names the transform only when there is one', () => {
    const token = githubToken('format');
    const [plain] = lintText(`x ${token}`);
    assert.equal(formatFinding(plain!), '1:3 block github-token ghp_…[40 chars]');
    const [disguised] = lintText(`x ${token.slice(0, 9)}&#${token.charCodeAt(9)};${token.slice(10)}`);
    assert.equal(formatFinding(disguised!), '1:3 block github-token ghp_…[40 chars] (through html-entity)');
  });
});
