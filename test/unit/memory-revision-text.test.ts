// The text a person edits to revise an approved entry (memory revise, the Memory screen's e): the
// entry file's dialect holding title, appliesWhen and type, then the body. Written, read back, and
// every bad edit refused with its line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readRevisionText, revisionText, sameAsEntry } from '../../source/memory/revision-text.js';

const ENTRY = {
  title: 'Where configuration is loaded',
  type: 'work_method',
  appliesWhen: 'working in this repository',
  body: '\nConfiguration is loaded by `src/legacy/config.ts`.  \n\n',
};

function refusal(text: string): { line: number; message: string } {
  const read = readRevisionText(text);
  assert.ok(!read.ok, `accepted: ${text}`);
  return read;
}

describe('revision text', () => {
  it('writes the three fields and the body as written, and reads them back unchanged', () => {
    const text = revisionText(ENTRY);
    assert.equal(
      text,
      '---\ntitle: "Where configuration is loaded"\nappliesWhen: "working in this repository"\ntype: "work_method"\n---\nConfiguration is loaded by `src/legacy/config.ts`.\n',
    );
    const read = readRevisionText(text);
    assert.ok(read.ok);
    assert.deepEqual(read.value, {
      title: ENTRY.title,
      type: 'work_method',
      appliesWhen: ENTRY.appliesWhen,
      content: 'Configuration is loaded by `src/legacy/config.ts`.\n',
    });
    assert.ok(sameAsEntry(read.value, ENTRY), 'an untouched text is the entry');
    const none = revisionText({ ...ENTRY, appliesWhen: null });
    assert.match(none, /^appliesWhen: ""$/m, 'an empty appliesWhen to fill in');
    const back = readRevisionText(none);
    assert.ok(back.ok && back.value.appliesWhen === null);
  });

  it('accepts what an editor leaves: CRLF, a byte order mark, bare strings, fields in any order, trailing blanks', () => {
    const read = readRevisionText(
      '\uFEFF---\r\ntype: work_fact\r\ntitle:   Keep reviews short  \r\n---\r\n\r\nKeep each review under 300 lines.  \r\n\r\n',
    );
    assert.ok(read.ok, JSON.stringify(read));
    assert.deepEqual(read.value, {
      title: 'Keep reviews short',
      type: 'work_fact',
      appliesWhen: null,
      content: 'Keep each review under 300 lines.\n',
    });
  });

  it('tells a change from no change: the body as it is written, each field', () => {
    const same = readRevisionText(`${revisionText(ENTRY)}\n\n`);
    assert.ok(same.ok && sameAsEntry(same.value, ENTRY), 'blank lines at the end are not a change');
    for (const [from, to] of [
      ['loaded by', 'read by'],
      ['"work_method"', '"work_fact"'],
      ['"Where configuration is loaded"', '"Where config is loaded"'],
      ['"working in this repository"', '""'],
    ] as const) {
      const read = readRevisionText(revisionText(ENTRY).replace(from, to));
      assert.ok(read.ok && !sameAsEntry(read.value, ENTRY), `${from} → ${to} is a change`);
    }
  });

  it('refuses an empty title or body, an unknown type, another field, too much text, a broken block', () => {
    assert.deepEqual(refusal('---\ntitle: ""\ntype: work_fact\n---\nText.\n'), {
      ok: false,
      line: 2,
      message: '`title` is required: a non-empty line of text',
    });
    assert.equal(refusal('---\ntype: work_fact\n---\nText.\n').line, 3, 'a missing title: the closing line');
    assert.match(refusal('---\ntitle: "a\\nb"\ntype: work_fact\n---\nText.\n').message, /`title` is required/);
    assert.match(refusal('---\ntitle: T\ntype: recipe\n---\nText.\n').message, /`type` must be one of work_fact/);
    assert.match(refusal('---\ntitle: T\ntype: work_fact\n---\n\n  \n').message, /the body is empty/);
    const other = refusal('---\ntitle: T\nid: other\ntype: work_fact\n---\nText.\n');
    assert.equal(other.line, 3);
    assert.match(other.message, /`id` is not changed by a revision/);
    assert.match(refusal('---\ntitle: T\nappliesWhen: 3\ntype: work_fact\n---\nText.\n').message, /must be text/);
    assert.match(
      refusal(`---\ntitle: ${'t'.repeat(201)}\ntype: work_fact\n---\nText.\n`).message,
      /`title` is too long/,
    );
    assert.match(
      refusal(`---\ntitle: T\ntype: work_fact\n---\n${'word '.repeat(1000)}\n`).message,
      /over the 4096-byte limit/,
    );
    assert.match(refusal('title: T\nText.\n').message, /starts with a `---` line/);
    const unclosed = refusal('---\ntitle: T\ntype: work_fact\nText.\n');
    assert.equal(unclosed.line, 4);
    assert.match(unclosed.message, /or the closing `---`/);
  });
});
