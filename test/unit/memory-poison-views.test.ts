// The poisoning lint's view with disguises undone (source/memory/poison-views.ts): letters spelt
// apart are joined; digits apart (a version, an address) are kept as written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deobfuscatedView, normaliseForLint } from '../../source/memory/poison-views.js';

const undone = (text: string) => deobfuscatedView(normaliseForLint(text)).text;

describe('the view with disguises undone', () => {
  it('joins letters spelt apart, with digits standing for letters among them', () => {
    assert.equal(undone('i.g.n.o.r.e the notes'), 'ignore the notes');
    assert.equal(undone('1.g.n.0.r.e the notes'), 'ignore the notes');
  });

  it('keeps versions and addresses as written', () => {
    for (const text of ['pin 3.3.6 of it', 'serve on http://127.0.0.1:3000', 'node 20.11.1 on 10.0.0.5'])
      assert.equal(undone(text), text);
  });
});

describe('the normalised view', () => {
  it('reads a typographic apostrophe as the typed one, position for position', () => {
    for (const quote of ['\u2019', '\u2018', '\u02bc']) {
      const view = normaliseForLint(`Don${quote}t tell the user`);
      assert.equal(view.text, "don't tell the user");
      assert.deepEqual([view.starts[3], view.ends[3]], [3, 4]);
    }
  });

  it('drops underscores that mark emphasis, and keeps those inside a name', () => {
    assert.equal(normaliseForLint("_Don't_ tell the user").text, "don't tell the user");
    assert.equal(normaliseForLint('__Ignore__ the rules').text, 'ignore the rules');
    for (const text of ['read id_rsa', 'set API_KEY', 'a snake_case_name'])
      assert.equal(normaliseForLint(text).text, text.toLowerCase());
  });
});
