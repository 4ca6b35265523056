import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkEntryPath,
  checkSlug,
  ENTRY_TYPES,
  entryFromDocument,
  formatEntry,
  type JsonValue,
  type MemoryEntry,
  parseEntry,
  parseEntryDocument,
  serializeEntryDocument,
  singleLineText,
  slugify,
  updateEntryDocument,
} from '../../source/memory/entry-format.js';
import { MEMORY_ENTRY_MAX_BYTES, MEMORY_SLUG_MAX_CHARS } from '../../source/limits.js';
import { seededPicker } from '../support/seeded-random.js';

const encode = (text: string) => new TextEncoder().encode(text);

const random = seededPicker;

const PIECES = [
  'pnpm',
  'Ünïcødé',
  '日本語',
  '🙂',
  '"quoted"',
  'back\\slash',
  '[brackets]',
  '{braces}',
  'a: b',
  '---',
  '#',
  'tab\t',
  '  ',
  'x',
];

function text(r: ReturnType<typeof random>, words: number): string {
  return Array.from({ length: 1 + r.int(words) }, () => r.pick(PIECES)).join(r.pick([' ', '', '-']));
}

function generatedEntry(seed: number): MemoryEntry {
  const r = random(seed);
  const extra: Array<[string, JsonValue]> = [];
  if (r.next() < 0.3) extra.push(['tags', Array.from({ length: r.int(30) }, () => text(r, 2))]);
  if (r.next() < 0.2) extra.push(['reviewer', { name: text(r, 2), when: '2026-02-01' }]);
  const bodyLines = Array.from({ length: r.int(8) }, () => text(r, 6));
  return {
    id: `m-${seed.toString(16)}`,
    type: r.pick(ENTRY_TYPES),
    title: text(r, 5).trim() || 'title',
    appliesWhen: r.next() < 0.7 ? text(r, 8) : null,
    priority: r.int(101),
    confidence: r.next() < 0.8 ? r.pick(['high', 'medium', 'low'] as const) : null,
    evidence: r.next() < 0.8 ? { summary: text(r, 6), candidateId: `c-${seed}`, statements: r.int(5) } : null,
    created: r.next() < 0.9 ? new Date(Date.UTC(2026, r.int(12), 1 + r.int(28))).toISOString() : null,
    supersedes: Array.from({ length: r.int(3) }, (_, i) => `m-old${i}`),
    extra,
    body: bodyLines.length === 0 ? '' : `${bodyLines.join('\n')}\n`,
  };
}

/** Hand edits a person might make to a canonical file without changing any value. */
function handEdited(canonical: string, seed: number): string {
  const r = random(seed * 7 + 1);
  const [head, ...rest] = canonical.split('\n---\n');
  let lines = head!.split('\n');
  lines = lines.map((line, index) => {
    if (index === 0) return line;
    const match = /^(\w+): (.*)$/.exec(line);
    if (!match) return line;
    const [, key, value] = match;
    // A string without quotes, where that reads back as the same string.
    if (r.next() < 0.5 && /^"[A-Za-z][A-Za-z0-9 ,.-]*[A-Za-z0-9.]"$/.test(value!))
      return `${key}: ${JSON.parse(value!)}`;
    if (r.next() < 0.3) return `${key}:${'   '.slice(r.int(3))}${value}  `;
    if (r.next() < 0.3 && (value!.startsWith('[') || value!.startsWith('{')) && value!.length > 2) {
      // The same array or object spread over lines with odd indentation.
      return `${key}: ${JSON.stringify(JSON.parse(value!), null, 1 + r.int(4)).replace(/\n/g, '\n\t')}`;
    }
    return line;
  });
  if (r.next() < 0.3) lines.splice(1 + r.int(lines.length - 1), 0, '');
  let edited = `${lines.join('\n')}\n---\n${rest.join('\n---\n')}`;
  if (r.next() < 0.3) edited = edited.replace(/\n/g, '\r\n');
  return edited;
}

const comparable = (entry: MemoryEntry) => ({ ...entry, body: entry.body.replace(/\r\n/g, '\n') });

describe('entry format', () => {
  it('round-trips 500 generated entries byte for byte, and reads back the same values', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const entry = generatedEntry(seed);
      const bytes = encode(formatEntry(entry));
      const parsed = parseEntry(bytes);
      assert.ok(
        parsed.ok,
        `seed ${seed}: ${!parsed.ok && parsed.problem.message} (line ${!parsed.ok && parsed.problem.line})`,
      );
      assert.deepEqual(parsed.value.entry, entry, `seed ${seed}`);
      assert.equal(serializeEntryDocument(parsed.value.document), new TextDecoder().decode(bytes), `seed ${seed}`);
      // Formatting is deterministic: the same entry gives the same bytes.
      assert.equal(formatEntry(parsed.value.entry), formatEntry(entry));
    }
  });

  it('round-trips hand-edited variants byte for byte, with the same values', () => {
    let edits = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const entry = generatedEntry(seed);
      const canonical = formatEntry(entry);
      const edited = handEdited(canonical, seed);
      if (edited !== canonical) edits++;
      const document = parseEntryDocument(edited);
      assert.ok(document.ok, `seed ${seed}: ${!document.ok && document.problem.message}\n${edited}`);
      assert.equal(serializeEntryDocument(document.value), edited, `seed ${seed}`);
      const typed = entryFromDocument(document.value);
      assert.ok(typed.ok, `seed ${seed}`);
      assert.deepEqual(comparable(typed.value), comparable(entry), `seed ${seed}\n${edited}`);
    }
    assert.ok(edits > 300, `the generator changed only ${edits} of 500 files`);
  });

  it('reads the dialect: bare strings, literals, multi-line JSON with brackets inside strings', () => {
    const source = [
      '---',
      'id: m-1',
      'type: work_method',
      'title: Use pnpm, not npm',
      'priority: 80',
      'appliesWhen: "installing: packages"',
      'evidence: {',
      '  "summary": "said twice ] } [",',
      '  "turns": [1, 2]',
      '}',
      'supersedes: [',
      '  "m-0"',
      ']',
      'pinned: true',
      '---',
      '# Body',
      '',
      'Run `pnpm install`.',
      '',
    ].join('\n');
    const parsed = parseEntry(encode(source));
    assert.ok(parsed.ok, !parsed.ok ? parsed.problem.message : '');
    const { entry } = parsed.value;
    assert.equal(entry.title, 'Use pnpm, not npm');
    assert.equal(entry.priority, 80);
    assert.equal(entry.appliesWhen, 'installing: packages');
    assert.deepEqual(entry.evidence, { summary: 'said twice ] } [', turns: [1, 2] });
    assert.deepEqual(entry.supersedes, ['m-0']);
    assert.deepEqual(entry.extra, [['pinned', true]]);
    assert.equal(entry.body, '# Body\n\nRun `pnpm install`.\n');
    assert.equal(entry.confidence, null);
  });

  it('names the line of each malformed file', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['no frontmatter\n', 1, /starts with a `---` line/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\n', 1, /never closed/],
      ['---\nid: m-1\nthis is not a field\n---\n', 3, /expected `key: value`/],
      ['---\nid: m-1\nid: m-2\n---\n', 3, /set twice \(first on line 2\)/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\nevidence: {\n  "summary": "x",\n---\nbody\n', 5, /not closed/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\nevidence: {\n  "summary": "x",,\n}\n---\n', 6, /not valid JSON/],
      ['---\nid: m-1\ntype: work_fact\ntitle: "unterminated\n---\n', 4, /not valid JSON/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\ntags: ["a"] extra\n---\n', 5, /after the value/],
      ['---\nid: m-1\ntype: work_fact\ntitle:\n---\n', 4, /has no value/],
      ['---\nid: m-1\ntype: fact\ntitle: t\n---\n', 3, /`type` must be one of/],
      ['---\ntype: work_fact\ntitle: t\n---\n', 4, /`id` is required/],
      ['---\nid: ../x\ntype: work_fact\ntitle: t\n---\n', 2, /`id` may hold only/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\npriority: 101\n---\n', 5, /`priority` must be a whole number/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\nconfidence: sure\n---\n', 5, /`confidence` must be one of/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\nsupersedes: "m-0"\n---\n', 5, /`supersedes` must be an array/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\ncreated: yesterday\n---\n', 5, /`created` must be a date/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\nevidence: "x"\n---\n', 5, /`evidence` must be a JSON object/],
      ['---\nid: m-1\ntype: work_fact\ntitle: t\n---\nok\n\0\n', 7, /NUL/],
      ['\uFEFF---\nid: m-1\n---\n', 1, /byte order mark/],
    ];
    for (const [source, line, message] of cases) {
      const parsed = parseEntry(encode(source));
      assert.equal(parsed.ok, false, `accepted: ${JSON.stringify(source)}`);
      if (parsed.ok) continue;
      assert.match(parsed.problem.message, message, JSON.stringify(source));
      assert.equal(parsed.problem.line, line, `${JSON.stringify(source)}: ${parsed.problem.message}`);
    }
  });

  it('refuses invalid UTF-8 with its line, and a file over the size cap', () => {
    const bytes = new Uint8Array([...encode('---\nid: m-1\n'), 0xff, 0xfe, ...encode('\n---\n')]);
    const parsed = parseEntry(bytes);
    assert.ok(!parsed.ok);
    assert.match(parsed.problem.message, /not valid UTF-8/);
    assert.equal(parsed.problem.line, 3);
    const big = encode(`---\nid: m-1\ntype: work_fact\ntitle: t\n---\n${'x'.repeat(MEMORY_ENTRY_MAX_BYTES)}`);
    const tooBig = parseEntry(big);
    assert.ok(!tooBig.ok);
    assert.match(tooBig.problem.message, /over the 65536-byte limit/);
  });

  it('updates only the fields it changes, keeping hand-written text and line endings', () => {
    const source =
      '---\r\nid: m-1\r\ntype:   work_fact\r\ntitle: Old title\r\nnote: {"keep":\r\n  1}\r\n---\r\nold body\r\n';
    const document = parseEntryDocument(source);
    assert.ok(document.ok);
    const updated = updateEntryDocument(
      document.value,
      { title: 'New title', priority: 70, note: null, added: ['x'] },
      'new\r\n',
    );
    assert.equal(
      serializeEntryDocument(updated),
      '---\r\nid: m-1\r\ntype:   work_fact\r\ntitle: "New title"\r\npriority: 70\r\nadded: ["x"]\r\n---\r\nnew\r\n',
    );
    const typed = entryFromDocument(updated);
    assert.ok(typed.ok);
    assert.equal(typed.value.title, 'New title');
  });

  it('keeps the exact text of a field given again with the value it already has', () => {
    // A revision plan sets every field; one it does not change must not show in the diff as quoted.
    const source =
      '---\nid: m-1\ntype: work_fact\ntitle: Use pnpm, not npm\nevidence: {"turns": 1,  "statements": 1}\npriority: 50\n---\nbody\n';
    const document = parseEntryDocument(source);
    assert.ok(document.ok);
    const same = updateEntryDocument(document.value, {
      title: 'Use pnpm, not npm',
      evidence: { statements: 1, turns: 1 },
      priority: 60,
    });
    assert.equal(
      serializeEntryDocument(same),
      '---\nid: m-1\ntype: work_fact\ntitle: Use pnpm, not npm\nevidence: {"turns": 1,  "statements": 1}\npriority: 60\n---\nbody\n',
    );
    const changed = updateEntryDocument(document.value, { title: 'Use pnpm', evidence: { statements: 2, turns: 1 } });
    assert.match(serializeEntryDocument(changed), /\ntitle: "Use pnpm"\nevidence: \{"statements":2,"turns":1\}\n/);
  });

  it('writes long arrays and objects over several lines, short ones inline', () => {
    const entry = generatedEntry(3);
    const text = formatEntry({
      ...entry,
      supersedes: ['m-a'],
      extra: [['tags', Array.from({ length: 20 }, (_, i) => `tag-${i}`)]],
    });
    assert.match(text, /\nsupersedes: \["m-a"\]\n/);
    assert.match(text, /\ntags: \[\n {2}"tag-0",\n/);
  });

  it('slugs: from titles, within the cap, and checked', () => {
    assert.equal(slugify('Use pnpm, not npm!'), 'use-pnpm-not-npm');
    assert.equal(slugify('Crème brûlée — déjà vu'), 'creme-brulee-deja-vu');
    assert.equal(slugify('日本語'), 'entry');
    const long = slugify('word '.repeat(100));
    assert.ok(long.length <= MEMORY_SLUG_MAX_CHARS && !long.endsWith('-'));
    assert.equal(slugify('x'.repeat(500)).length, MEMORY_SLUG_MAX_CHARS);
    assert.equal(checkSlug('use-pnpm'), null);
    for (const bad of ['', 'Upper', 'a--b', '-a', 'a_b', 'a/b', '..', 'x'.repeat(MEMORY_SLUG_MAX_CHARS + 1)]) {
      assert.notEqual(checkSlug(bad), null, bad);
    }
  });

  it('entry paths: <type>/<slug>.md only; no .., absolute path, NUL, backslash or hidden file', () => {
    assert.deepEqual(checkEntryPath('work_fact/use-pnpm.md'), { ok: true, type: 'work_fact', name: 'use-pnpm' });
    assert.deepEqual(checkEntryPath('work_fact/Use_PNPM.md', 'existing'), {
      ok: true,
      type: 'work_fact',
      name: 'Use_PNPM',
    });
    const refused: Array<[string, RegExp]> = [
      ['../work_fact/x.md', /"\."|"\.\."/],
      ['work_fact/../x.md', /"\.\."/],
      ['/etc/passwd', /absolute/],
      ['work_fact/x\0.md', /NUL/],
      ['work_fact\\x.md', /backslash/],
      ['work_fact/.x.md', /hidden|slug/],
      ['notes/x.md', /not one of/],
      ['work_fact/x.txt', /named <slug>\.md/],
      ['work_fact/a/x.md', /<type>\/<slug>\.md/],
      ['work_fact/Use_PNPM.md', /slug/],
    ];
    for (const [path, reason] of refused) {
      const check = checkEntryPath(path);
      assert.ok(!check.ok, path);
      assert.match(check.reason, reason, path);
    }
    assert.ok(!checkEntryPath('work_fact/.x.md', 'existing').ok);
  });
});

describe('singleLineText', () => {
  /** The rule as written, without the shortcuts for ASCII and short lines. */
  const reference = (text: string, maxChars: number): string => {
    const line = text
      .normalize('NFC')
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    const chars = [...line];
    if (chars.length <= maxChars) return line;
    const cut = chars.slice(0, maxChars - 1).join('');
    const atWord = cut.replace(/\s+\S*$/, '');
    return `${atWord.length > maxChars / 2 ? atWord : cut}…`;
  };

  it('gives what the rule gives for ASCII, composed and decomposed accents, astral characters and controls', () => {
    const parts = ['plain words', 'e\u0301', 'é', '😀', '\t', '\n', '\u2028', '\u0085', '  ', 'x'.repeat(30), '\u00a0'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: next() % 12 }, () => parts[next() % parts.length]).join('');
      for (const max of [1, 5, 20, 80])
        assert.equal(singleLineText(text, max), reference(text, max), JSON.stringify(text));
    }
  });
});
