// A stand-in for a person's $EDITOR in tests: `node fake-editor.mjs <file>`, told what to do by
// its environment. FAKE_EDITOR_LOG: a file it copies the text it was given to (what the editor
// showed). FAKE_EDITOR_REPLACE / FAKE_EDITOR_WITH: every occurrence of the first becomes the second.
// FAKE_EDITOR_EXIT: exits with that status (after any edit), as an editor quit with an error does.
// FAKE_EDITOR_STTY: a file it writes `stty -a` of its terminal to (the mode the TUI left it in).
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  process.stderr.write('fake-editor: no file given\n');
  process.exit(64);
}
const text = readFileSync(file, 'utf8');
if (process.env.FAKE_EDITOR_STTY)
  writeFileSync(
    process.env.FAKE_EDITOR_STTY,
    `stdin is a tty: ${process.stdin.isTTY === true}\n${execFileSync('stty', ['-a'], { stdio: ['inherit', 'pipe', 'pipe'], encoding: 'utf8' })}`,
  );
if (process.env.FAKE_EDITOR_LOG) appendFileSync(process.env.FAKE_EDITOR_LOG, text);
const from = process.env.FAKE_EDITOR_REPLACE;
if (from !== undefined) writeFileSync(file, text.split(from).join(process.env.FAKE_EDITOR_WITH ?? ''));
process.exit(Number(process.env.FAKE_EDITOR_EXIT ?? 0));
