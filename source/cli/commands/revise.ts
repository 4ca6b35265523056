// `memory revise <entry-id>`: a person edits an approved entry's text — in $VISUAL or $EDITOR, or
// from a file — and the edit becomes a draft candidate marked as revising the entry (the revision
// `memory_propose` records), so that preparing it rewrites the entry's own file. Nothing is
// approved here: the candidate is reviewed, prepared, approved and promoted like any. The entry is
// read and the candidate made over short connections; none is held while the editor is open.
import type { MemoryEntryView, MemoryProposeResult } from '../../api/memory-views.js';
import { insideWorktree } from '../../client/worktree-here.js';
import { CmError, EXIT } from '../../errors.js';
import { readUserFile, shownPath } from '../../ground/user-file.js';
import { MEMORY_ENTRY_MAX_BYTES } from '../../limits.js';
import { type EditorEnv, type EditorSpawn, editText, keepText } from '../../ground/text-editor.js';
import { readRevisionText, revisionText, sameAsEntry } from '../../memory/revision-text.js';
import type { Output } from '../output.js';
import { refuseGroupId, scopeOption, withWrite } from './promote.js';
import { CLI_CLIENT } from '../../memory/revision-clients.js';

export interface ReviseFlags {
  scope?: string | undefined;
  file?: string | undefined;
}

/** Where the editor comes from: the process's environment, unless a test gives its own. */
export interface ReviseEditor {
  env: EditorEnv;
  spawn?: EditorSpawn | undefined;
}

export async function memoryRevise(
  home: string,
  args: string[],
  flags: ReviseFlags,
  out: Output,
  editor: ReviseEditor = { env: process.env },
): Promise<number> {
  const entryId = args[0];
  if (!entryId)
    throw new CmError(
      'usage',
      'Name the approved entry to revise: common-memory memory revise <entry-id> [--file PATH] (memory search lists entries).',
    );
  refuseGroupId(entryId, 'revise', 'Nothing was made.');
  const scope = scopeOption(flags.scope);
  const cwd = process.cwd();
  // The file is the caller's input: one that cannot be read is said before the entry is looked up.
  const fileText = flags.file === undefined ? undefined : fromFile(flags.file);

  const entry = await readEntry(home, entryId, cwd);
  const held = entry.sources.find((source) => scope === undefined || source.scope === scope);
  if (!held)
    throw new CmError(
      'not_found',
      `No ${scope} memory file holds entry ${entryId} (it is in the ${entry.sources.map((s) => s.scope).join(' and ')} scope); drop --scope or give that one. Nothing was made.`,
    );

  const edited = fileText ?? fromEditor(entry, editor);
  const read = readRevisionText(edited.text);
  if (!read.ok) {
    // An edit that does not read back is not lost: it is kept for the person to fix.
    const kept = edited.from === 'editor' ? keepText(edited.text, `${entryId}.md`) : flags.file!;
    throw new CmError(
      'invalid_input',
      `Line ${read.line} of the edited text: ${read.message}. Nothing was made; fix ${kept} and run common-memory memory revise ${entryId} --file ${kept}`,
    );
  }
  const fields = read.value;
  if (sameAsEntry(fields, entry)) {
    out.result({ entryId, scope: held.scope, changed: false, candidateId: null }, () =>
      edited.from === 'editor'
        ? `Nothing changed in ${entryId}: no candidate was made.`
        : `${flags.file} holds ${entryId}'s text unchanged: no candidate was made.`,
    );
    return EXIT.ok;
  }

  const proposed: MemoryProposeResult = await withWrite(home, (app) =>
    app.memoryPropose({
      cwd,
      title: fields.title,
      content: fields.content,
      type: fields.type,
      appliesWhen: fields.appliesWhen,
      origin: { client: CLI_CLIENT, clientVersion: null, conversation: null },
      revises: entryId,
    }),
  );
  // The candidate belongs to this directory's scope; a user-scope entry is rewritten in the user
  // root, so prepare is told so when the two differ.
  const scopeFlag = held.scope === 'user' && insideWorktree(cwd) ? ' --scope user' : '';
  const prepare = `common-memory memory prepare ${proposed.candidateId}${scopeFlag}`;
  out.result({ entryId, scope: held.scope, path: held.path, changed: true, ...proposed, prepare }, () => {
    const lines = [
      proposed.status === 'quarantined'
        ? `Candidate ${proposed.candidateId} is quarantined: the edited text trips ${proposed.blockedBy.join(', ')}. Review it with memory review; nothing of ${entryId} changes.`
        : `Candidate ${proposed.candidateId} ${proposed.created ? 'made' : 'was already there'}: a revision of ${entryId} (${held.scope} ${held.path}).`,
    ];
    if (proposed.status === 'draft')
      lines.push(`Review it (memory review), then prepare the plan that rewrites the entry's file: ${prepare}`);
    return lines.join('\n');
  });
  return EXIT.ok;
}

/** Over a writing connection: a data home with no store yet gets one, and the projection follows the files. */
const readEntry = (home: string, entryId: string, cwd: string): Promise<MemoryEntryView> =>
  withWrite(home, (app) => app.memoryGet({ entryId, cwd }));

function fromEditor(entry: MemoryEntryView, editor: ReviseEditor): { text: string; from: 'editor' } {
  const outcome = editText(revisionText(entry), { env: editor.env, name: `${entry.id}.md`, spawn: editor.spawn });
  if (outcome.kind === 'no-editor')
    throw new CmError(
      'usage',
      `No editor to open: set VISUAL or EDITOR (e.g. export EDITOR=nano), or give the new text with --file PATH (a \`---\` block with title, appliesWhen and type, then the body). Nothing was made.`,
    );
  if (outcome.kind === 'failed')
    throw new CmError('runtime_failed', `${capitalise(outcome.message)}; nothing was made. ${entry.id} is unchanged.`);
  return { text: outcome.text, from: 'editor' };
}

function fromFile(path: string): { text: string; from: 'file' } {
  // `memory lint -` reads stdin; here the text is a file's (kept for --file once fixed), so `-` is
  // said to be no file rather than reported as one that cannot be read.
  if (path === '-')
    throw new CmError(
      'usage',
      '--file takes the path of a file; - (standard input) is not read by memory revise: save the text to a file and give its path. Nothing was made.',
    );
  try {
    return { text: readUserFile(path, MEMORY_ENTRY_MAX_BYTES, 'memory revise'), from: 'file' };
  } catch (error) {
    // Not a regular file, or over the bound: the reader's own line says which.
    if (error instanceof CmError && error.code !== 'not_found') throw error;
    throw new CmError(
      'invalid_input',
      `Cannot read ${shownPath(path)}: no such file; give a readable file with --file. Nothing was made.`,
    );
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
