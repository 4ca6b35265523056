// The installed Claude Code 2.1.332 against source/hosts/claude/record-kinds.ts: every transcript
// discriminator the client's shipped code knows must be in our lists (classified), so a client
// that learns a new one fails here before it reaches a user. The native binary embeds its JS; the
// names are read from it where the client itself enumerates them:
// - line types: its transcript retention table (`{user:"transcript",assistant:"transcript",…}`);
// - attachment types: its attachment renderer (the function that turns each attachment into what
//   the model sees: a switch on the type, `type === "…"` tests and a table of renderers) and every
//   list of names beside it (mostly the same names);
// - system subtypes: every `type:"system",subtype:"…"` it constructs;
// - prompt sources: every `promptSource` it stamps or tests.
// Each extraction must find a plausible number of names, so a broken extraction fails loudly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import ts from 'typescript';
import {
  CLAUDE_ATTACHMENT_KINDS,
  CLAUDE_BOOKKEEPING_TYPES,
  CLAUDE_CHAIN_TYPES,
  CLAUDE_PROMPT_SOURCES,
  CLAUDE_SYSTEM_SUBTYPES,
} from '../../source/hosts/claude/record-kinds.js';
import { locateClients } from './clients.js';

const binary = (): Buffer => readFileSync(locateClients().claudeBinary);
const latin1 = (bytes: Buffer): string => bytes.toString('latin1');

function missing(known: Iterable<string>, ours: (name: string) => boolean): string[] {
  return [...new Set(known)].filter((name) => !ours(name)).sort();
}

function all(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[1] as string);
}

/** The JS module around `offset`: Bun keeps each one as a NUL-delimited source text. */
function moduleAt(bytes: Buffer, offset: number): string {
  const start = bytes.lastIndexOf(0, offset) + 1;
  const end = bytes.indexOf(0, offset);
  return bytes.subarray(start, end).toString('utf8');
}

function attachmentTypesOfRenderer(bytes: Buffer): Set<string> {
  const anchor = /Object\.hasOwn\(([\w$]+),e\.type\)\)return \1\[e\.type\]\(e\)/.exec(latin1(bytes));
  assert.ok(anchor, "the attachment renderer's table lookup was not found in the client");
  const source = moduleAt(bytes, anchor.index);
  const table = anchor[1] as string;
  const file = ts.createSourceFile('module.js', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const names = new Set<string>();
  const inRenderer = (node: ts.Node): void => {
    if (
      ts.isCaseClause(node) &&
      ts.isStringLiteral(node.expression) &&
      node.parent.parent.expression.getText() === 'e.type'
    ) {
      names.add(node.expression.text);
    }
    if (
      ts.isBinaryExpression(node) &&
      ['===', '!=='].includes(node.operatorToken.getText()) &&
      node.left.getText() === 'e.type' &&
      ts.isStringLiteral(node.right)
    ) {
      names.add(node.right.text);
    }
    ts.forEachChild(node, inRenderer);
  };
  const find = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.getText().includes(`Object.hasOwn(${table},e.type)`)) inRenderer(node);
    if (
      ts.isVariableDeclaration(node) &&
      node.name.getText() === table &&
      node.initializer &&
      ts.isObjectLiteralExpression(node.initializer)
    ) {
      for (const property of node.initializer.properties)
        if (property.name) names.add(property.name.getText().replace(/^"|"$/g, ''));
    }
    ts.forEachChild(node, find);
  };
  find(file);
  return names;
}

it('the installed Claude Code knows no transcript discriminator that record-kinds.ts lacks', {
  timeout: 120_000,
}, () => {
  const bytes = binary();
  const text = latin1(bytes);

  const retention = /\{user:"transcript",assistant:"transcript",([^}]*)\}/.exec(text);
  assert.ok(retention, "the client's transcript retention table was not found");
  const lineTypes = ['user', 'assistant', ...all(retention[1] as string, /(?:^|,)"?([\w-]+)"?:"[\w-]+"/g)];
  assert.ok(lineTypes.length >= 30, `line types found: ${lineTypes.length}`);
  assert.deepEqual(
    missing(lineTypes, (n) => CLAUDE_CHAIN_TYPES.has(n) || CLAUDE_BOOKKEEPING_TYPES.has(n)),
    [],
    'line types',
  );

  const rendered = attachmentTypesOfRenderer(bytes);
  assert.ok(rendered.size >= 100, `attachment types found in the renderer: ${rendered.size}`);
  const listed: string[] = [];
  for (const list of text.matchAll(/\[(?:"[a-z_]+",)+"[a-z_]+"\]/g)) {
    const names = JSON.parse(list[0]) as string[];
    // A list of attachment types: at least three quarters of it are names the renderer knows.
    if (names.length >= 4 && names.filter((n) => rendered.has(n)).length * 4 >= names.length * 3) listed.push(...names);
  }
  assert.deepEqual(
    missing([...rendered, ...listed], (n) => CLAUDE_ATTACHMENT_KINDS.has(n)),
    [],
    'attachment types',
  );

  const subtypes = all(text, /type:"system",subtype:"([a-z_]+)"/g);
  assert.ok(new Set(subtypes).size >= 40, `system subtypes found: ${new Set(subtypes).size}`);
  assert.deepEqual(
    missing(subtypes, (n) => CLAUDE_SYSTEM_SUBTYPES.has(n)),
    [],
    'system subtypes',
  );

  const sources = all(text, /promptSource(?:===|!==|:)"([a-z_]+)"/g);
  assert.ok(new Set(sources).size >= 4, `prompt sources found: ${new Set(sources).size}`);
  assert.deepEqual(
    missing(sources, (n) => Object.hasOwn(CLAUDE_PROMPT_SOURCES, n)),
    [],
    'prompt sources',
  );
});
