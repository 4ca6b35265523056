// A person's own text editor on a text: `$VISUAL`, else `$EDITOR`, run as the shell runs it (so
// `code --wait` or `node fake-editor.mjs` work) on a temporary file, with the terminal inherited,
// synchronously: the caller's event loop is still until the editor exits. Used by `memory revise`
// and the Memory screen's `e`. The spawn is a parameter so a test can watch or replace it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type EditorEnv = Readonly<Record<string, string | undefined>>;

/** What running the editor came to: its exit status, the signal that ended it, or why it could not start. */
export interface EditorExit {
  status: number | null;
  signal: string | null;
  error?: Error | undefined;
}

/** Runs `command` on `file` and waits for it. */
export type EditorSpawn = (command: string, file: string, env: EditorEnv) => EditorExit;

export type EditOutcome =
  | { kind: 'edited'; text: string; editor: string }
  | { kind: 'no-editor' }
  | { kind: 'failed'; editor: string; message: string };

/** The editor a person chose: `$VISUAL`, else `$EDITOR`; null when neither is set. */
export function editorCommand(env: EditorEnv): string | null {
  for (const name of ['VISUAL', 'EDITOR']) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return null;
}

/** The editor through a shell, its file as one argument that the shell never splits or expands. */
export const shellSpawn: EditorSpawn = (command, file, env) => {
  // Output piped away (`memory revise --json | jq`) while stderr is the terminal: the editor draws there.
  const out = process.stdout.isTTY || !process.stderr.isTTY ? 'inherit' : 2;
  const stdio: ['inherit', 'inherit' | 2, 'inherit'] = ['inherit', out, 'inherit'];
  const run =
    process.platform === 'win32'
      ? spawnSync(`${command} "${file}"`, { shell: true, stdio, env: { ...env } })
      : spawnSync('/bin/sh', ['-c', `${command} "$1"`, 'sh', file], { stdio, env: { ...env } });
  return { status: run.status, signal: run.signal, error: run.error };
};

export interface EditOptions {
  env: EditorEnv;
  /** The temporary file's name (a `.md` name lets the editor colour Markdown). */
  name: string;
  spawn?: EditorSpawn | undefined;
}

/**
 * Writes `text` to a private temporary file, runs the editor on it and reads it back. The file is
 * removed whatever happens; an editor that cannot start, exits non-zero or is killed is `failed`.
 */
export function editText(text: string, options: EditOptions): EditOutcome {
  const editor = editorCommand(options.env);
  if (editor === null) return { kind: 'no-editor' };
  const dir = mkdtempSync(join(tmpdir(), 'cm-edit-'));
  const file = join(dir, options.name);
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const exit = (options.spawn ?? shellSpawn)(editor, file, options.env);
    if (exit.error)
      return { kind: 'failed', editor, message: `the editor "${editor}" could not start: ${exit.error.message}` };
    if (exit.signal) return { kind: 'failed', editor, message: `the editor "${editor}" was ended by ${exit.signal}` };
    if (exit.status !== 0)
      return { kind: 'failed', editor, message: `the editor "${editor}" exited with status ${exit.status}` };
    try {
      return { kind: 'edited', text: readFileSync(file, 'utf8'), editor };
    } catch (error) {
      return { kind: 'failed', editor, message: `the edited file could not be read: ${(error as Error).message}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Keeps an edited text a person would lose (it did not read back): a private file, its path returned. */
export function keepText(text: string, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cm-edit-')), name);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}
