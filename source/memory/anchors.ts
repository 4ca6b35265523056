// Anchors: the concrete claims an approved entry makes about its repository — a path, a package
// script, a repository-local binary, a symbol in a named file, a commit, a branch — extracted from
// its title and body so that a later worktree can be checked against them (effects/anchor-verify.ts).
// Recognition is deliberately narrow: what is not recognised is not an anchor, and an entry with no
// anchor is never stale, so every rule here errs towards missing a claim rather than inventing one
// (a false "stale" hides a good memory; a missed anchor only leaves an entry unverified).

/** At most this many anchors per entry, in order of first mention: verification stays bounded. */
export const MAX_ANCHORS_PER_ENTRY = 16;

export type ScriptRunner = 'npm' | 'make' | 'just' | 'python';

export type Anchor =
  /** A path relative to the worktree root; `directory` when written with a trailing `/`. */
  | { kind: 'path'; path: string; directory: boolean }
  | { kind: 'script'; runner: ScriptRunner; name: string }
  /** A binary the repository provides (`npx x`, `pnpm exec x`): a dependency or node_modules/.bin. */
  | { kind: 'binary'; name: string }
  /** An identifier in backticks, tied to the file path nearest to it in the same paragraph. */
  | { kind: 'symbol'; symbol: string; path: string }
  | { kind: 'commit'; sha: string }
  | { kind: 'branch'; name: string };

export interface AnchorSource {
  title: string;
  body: string;
}

export interface ExtractOptions {
  /** An absolute path inside this root is kept, relative to it; any other absolute path is not an anchor. */
  worktreeRoot?: string;
}

/** A stable identity: two mentions of the same claim are one anchor. */
export function anchorKey(anchor: Anchor): string {
  switch (anchor.kind) {
    case 'path':
      return `path:${anchor.path}${anchor.directory ? '/' : ''}`;
    case 'script':
      return `script:${anchor.runner}:${anchor.name}`;
    case 'binary':
      return `binary:${anchor.name}`;
    case 'symbol':
      return `symbol:${anchor.path}#${anchor.symbol}`;
    case 'commit':
      return `commit:${anchor.sha}`;
    case 'branch':
      return `branch:${anchor.name}`;
  }
}

/** How a person reads the claim, e.g. "`npm run lint`" or "`loadConfig` in `src/config.ts`". */
export function describeAnchor(anchor: Anchor): string {
  switch (anchor.kind) {
    case 'path':
      return `\`${anchor.path}${anchor.directory ? '/' : ''}\``;
    case 'script':
      return `\`${SCRIPT_VERB[anchor.runner]} ${anchor.name}\``;
    case 'binary':
      return `\`npx ${anchor.name}\``;
    case 'symbol':
      return `\`${anchor.symbol}\` in \`${anchor.path}\``;
    case 'commit':
      return `commit ${anchor.sha}`;
    case 'branch':
      return `branch \`${anchor.name}\``;
  }
}

const SCRIPT_VERB: Record<ScriptRunner, string> = {
  npm: 'npm run',
  make: 'make',
  just: 'just',
  python: 'uv run',
};

// ---- the text's pieces ----

/** The paragraph (blank-line separated) of an offset of the text. */
function paragraphs(text: string): (offset: number) => number {
  const breaks = [...text.matchAll(/\n[ \t]*\n/g)].map((match) => match.index ?? 0);
  return (offset) => {
    let count = 0;
    while (count < breaks.length && breaks[count]! < offset) count++;
    return count;
  };
}

interface Piece {
  text: string;
  /** Inside backticks or a fenced block: commands and single-segment file names count there only. */
  code: boolean;
  /** Offset in the whole text, to find the path nearest a symbol. */
  offset: number;
  paragraph: number;
}

/** Splits the text into prose and code, each with its paragraph (blank-line separated). */
function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  const paragraphAt = paragraphs(text);
  // Fenced blocks first (``` or ~~~), then inline spans in what is left.
  const fence = /^(```|~~~)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm;
  let last = 0;
  const prose = (from: number, to: number) => {
    const part = text.slice(from, to);
    const inline = /(`+)([^`]+?)\1/g;
    let cursor = 0;
    for (const match of part.matchAll(inline)) {
      const at = match.index ?? 0;
      if (at > cursor) out.push({ text: part.slice(cursor, at), code: false, offset: from + cursor, paragraph: 0 });
      out.push({ text: match[2]!.trim(), code: true, offset: from + at, paragraph: 0 });
      cursor = at + match[0].length;
    }
    if (cursor < part.length) out.push({ text: part.slice(cursor), code: false, offset: from + cursor, paragraph: 0 });
  };
  for (const match of text.matchAll(fence)) {
    const at = match.index ?? 0;
    prose(last, at);
    // A fenced block is read line by line, as commands.
    let lineOffset = at + match[0].indexOf('\n') + 1;
    for (const line of match[2]!.split('\n')) {
      if (line.trim() !== '') out.push({ text: line.trim(), code: true, offset: lineOffset, paragraph: 0 });
      lineOffset += line.length + 1;
    }
    last = at + match[0].length;
  }
  prose(last, text.length);
  // One pass for the paragraph numbers (pieces are in order).
  for (const piece of out) piece.paragraph = paragraphAt(piece.offset);
  return out;
}

// ---- paths ----

/** Extensions a single-segment name in backticks may carry to count as a file (`package.json`). */
const FILE_EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx markdown rst txt yml yaml toml ini cfg conf env lock ' +
    'py pyi rb go rs java kt kts swift c h cc cpp hpp cs fs php sh bash zsh fish ps1 sql html htm css scss sass less ' +
    'vue svelte astro xml gradle properties proto graphql gql csv tsv tf tfvars hcl nix mk ex exs erl hrl hs ml mli ' +
    'clj cljs lua r jl dart scala sbt pl pm zig nim gleam elm sol wasm bzl bazel cmake editorconfig gitignore npmrc nvmrc'
  ).split(' '),
);
/** Files known by name alone. */
const BARE_FILE_NAMES = new Set([
  'Makefile',
  'GNUmakefile',
  'makefile',
  'Dockerfile',
  'Containerfile',
  'justfile',
  'Justfile',
  'Procfile',
  'Gemfile',
  'Rakefile',
  'Brewfile',
  'Vagrantfile',
  'Jenkinsfile',
  'LICENSE',
  'CODEOWNERS',
]);
/** Top-level domains: `api.example.com` or `example.org/docs/x.html` is a host, not a path. */
const HOST_SUFFIX = /\.(com|org|net|io|dev|app|ai|co|edu|gov|info|biz|cloud|sh|me|us|uk|de|fr|eu|local|internal)$/i;
/** Characters that make a token a pattern or a placeholder, not a claim: globs, `<name>`, `$VAR`, `%s`. */
const PATTERN_CHARS = /[*?[\]{}<>$%|\\"'`,;=!^~]/;

export interface PathClaim {
  path: string;
  directory: boolean;
}

/**
 * A token read as a worktree path, or null. In prose a path needs a `/` and then a file extension
 * or a trailing `/` (`client/server`, `and/or` are words); in code a single name with a known file
 * extension (`package.json`) or a known bare name (`Makefile`) counts too.
 */
export function readPathToken(raw: string, code: boolean, worktreeRoot?: string): PathClaim | null {
  let token = raw.replace(/^[("'[]+/, '');
  // Trailing sentence punctuation, then a `:line[:column]` or `#Lnn` position.
  token = token.replace(/[)"'\].,;:!?]+$/, '');
  token = token.replace(/(?::\d+){1,2}$/, '').replace(/#L\d+(?:-L?\d+)?$/, '');
  if (token.length === 0 || token.length > 300) return null;
  if (token.includes('://') || /^www\./i.test(token) || token.startsWith('@') || token.startsWith('~')) return null;
  if (PATTERN_CHARS.test(token) || /\s/.test(token) || /[\u0000-\u001f\u007f]/.test(token)) return null;
  if (/^[A-Za-z]:/.test(token)) return null;
  if (token.startsWith('/')) {
    if (!worktreeRoot) return null;
    const root = worktreeRoot.replace(/\/+$/, '');
    if (!token.startsWith(`${root}/`)) return null;
    token = token.slice(root.length + 1);
  }
  while (token.startsWith('./')) token = token.slice(2);
  const directory = token.endsWith('/');
  const body = directory ? token.replace(/\/+$/, '') : token;
  if (body.length === 0) return null;
  const segments = body.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  if (segments.some((segment) => !/^[\w.@+-]+$/.test(segment))) return null;
  if (HOST_SUFFIX.test(segments[0]!) && segments[0]!.includes('.')) return null;
  const last = segments[segments.length - 1]!;
  const dot = last.lastIndexOf('.');
  const extension = dot > 0 ? last.slice(dot + 1) : '';
  const hasExtension = /^[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$/.test(extension) && extension.length <= 10;
  if (segments.length === 1) {
    if (!code || directory) {
      // A lone word with a slash after it (`docs/`) names a directory in prose and code alike.
      if (directory && /^[A-Za-z_][\w.-]*$/.test(body) && !/^\d/.test(body)) return { path: body, directory: true };
      return null;
    }
    if (BARE_FILE_NAMES.has(last)) return { path: body, directory: false };
    if (hasExtension && FILE_EXTENSIONS.has(extension.toLowerCase()) && dot > 0)
      return { path: body, directory: false };
    return null;
  }
  if (directory) return { path: body, directory: true };
  if (hasExtension || BARE_FILE_NAMES.has(last)) return { path: body, directory: false };
  // In code, `src/legacy` names a directory or an extensionless file: a claim that it exists.
  if (code && /^[A-Za-z_.][\w.-]*$/.test(segments[0]!)) return { path: body, directory: false };
  return null;
}

// ---- commands ----

/** npm-family `run` is distinctive anywhere; `make`/`just`/python runners count in code only ("make sure"). */
const NPM_RUN = /\b(?:npm|pnpm|yarn|bun)\s+(?:run|run-script)\s+([A-Za-z0-9_@][\w:.@/-]*)/g;
const NPM_LIFECYCLE = /\b(?:npm|pnpm|yarn|bun)\s+(test|start|stop|restart)\b/g;
const SHELL_SPLIT = /\s*(?:&&|\|\||;|\|)\s*/;

interface CommandClaims {
  scripts: Array<{ runner: ScriptRunner; name: string }>;
  binaries: string[];
  branches: string[];
}

function trimName(name: string): string {
  return name.replace(/[.,;:!?)]+$/, '');
}

function commandClaims(piece: Piece): CommandClaims {
  const claims: CommandClaims = { scripts: [], binaries: [], branches: [] };
  for (const match of piece.text.matchAll(NPM_RUN)) {
    const name = trimName(match[1]!);
    if (name) claims.scripts.push({ runner: 'npm', name });
  }
  for (const match of piece.text.matchAll(NPM_LIFECYCLE)) claims.scripts.push({ runner: 'npm', name: match[1]! });
  if (!piece.code) return claims;
  for (const command of piece.text.split(SHELL_SPLIT)) {
    const words = command
      .trim()
      .replace(/^\$\s+/, '')
      .split(/\s+/);
    const [head, ...rest] = words;
    if (head === 'make' || head === 'just') {
      const named: string[] = [];
      for (const word of rest) {
        // -C/-f read another directory's or file's targets: the claim is not about this one.
        if (/^(-C|-f|--directory|--file|--justfile|--working-directory|-d)(=|$)/.test(word)) return claims;
        if (word.startsWith('-') || word.includes('=')) continue;
        named.push(word);
        if (head === 'just') break; // the words after a recipe are its arguments
      }
      for (const word of named) {
        const name = trimName(word);
        if (/^[A-Za-z0-9_][\w.-]*$/.test(name)) claims.scripts.push({ runner: head, name });
      }
    } else if (/^(uv|poetry|pdm|hatch|rye)$/.test(head ?? '') && rest[0] === 'run') {
      const name = rest.slice(1).find((word) => !word.startsWith('-'));
      // `uv run python …` / `uv run pytest` run a tool, not a declared script: only names that look declared.
      if (name && /^[A-Za-z][\w.-]*$/.test(name) && !/^python[\d.]*$/.test(name)) {
        claims.scripts.push({ runner: 'python', name: trimName(name) });
      }
    } else if (head === 'npx' || ((head === 'pnpm' || head === 'yarn' || head === 'npm') && rest[0] === 'exec')) {
      const args = head === 'npx' ? rest : rest.slice(1);
      // -y/-p/--package fetch from the registry: not a claim about this repository.
      if (args.some((word) => /^(-y|--yes|-p|--package)(=|$)/.test(word))) continue;
      const name = args.find((word) => !word.startsWith('-'));
      if (name && /^(@[\w.-]+\/)?[\w.-]+$/.test(name) && !name.includes('@', 1)) claims.binaries.push(name);
    } else if (head === 'git' && (rest[0] === 'checkout' || rest[0] === 'switch')) {
      // -b/-c create the branch: the entry claims nothing exists yet.
      if (rest.some((word) => /^-[bcBC]$|^--(create|orphan)/.test(word))) continue;
      const name = rest.slice(1).find((word) => !word.startsWith('-'));
      if (name && isBranchName(name)) claims.branches.push(name);
    }
  }
  return claims;
}

function isBranchName(name: string, explicit = false): boolean {
  if (name.length > 100 || !/^[A-Za-z0-9][\w./-]*$/.test(name)) return false;
  if (name.includes('..') || name.endsWith('/') || name.endsWith('.lock') || name.endsWith('.')) return false;
  // After `git checkout`, a file argument (`src/a.ts`) or a commit is not a branch; "the `release/2.x` branch" is.
  if ((!explicit && /\.[A-Za-z]{1,5}$/.test(name)) || /^[0-9a-f]{7,40}$/.test(name)) return false;
  return name !== 'HEAD' && name !== '-';
}

/** "the `release/2.x` branch", "branch `main`": explicit mentions only. */
function branchMentions(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/`([^`\s]+)`\s+branch\b|\bbranch(?:es)?\s+(?:named\s+|called\s+)?`([^`\s]+)`/gi)) {
    const name = match[1] ?? match[2]!;
    if (isBranchName(name, true)) names.push(name);
  }
  return names;
}

// ---- commits ----

/** A hex run that is a whole word: not inside a UUID, a URL, a colour, a `0x` number or a longer token. */
const HEX_RUN = /(?<![\w#/.:-])([0-9a-fA-F]{7,64})(?![\w-])/g;
const COMMIT_CONTEXT = /\b(commit|sha|revision|rev|revert(?:ed)?|cherry-pick(?:ed)?)\s*[:#]?\s*`?$/i;

function commitMentions(text: string): string[] {
  const withoutUrls = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
  const shas: string[] = [];
  for (const match of withoutUrls.matchAll(HEX_RUN)) {
    const sha = match[1]!;
    // Git prints ids in lower case; an upper-case hex run is some other number.
    if (sha !== sha.toLowerCase()) continue;
    // Abbreviations are 7–12 characters; a full SHA-1 is 40. 32 (md5) and 64 (sha256) are digests.
    if (!(sha.length <= 12 || sha.length === 40)) continue;
    const mixed = /[0-9]/.test(sha) && /[a-f]/.test(sha);
    if (!mixed) {
      // `deadbeef`, `facade`, `20240611`: a word or a number, unless the text calls it a commit.
      const before = withoutUrls.slice(Math.max(0, (match.index ?? 0) - 24), match.index);
      if (!COMMIT_CONTEXT.test(before)) continue;
    }
    shas.push(sha);
  }
  return shas;
}

// ---- symbols ----

const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*(?:\(\))?$/;
/** Words that are the language's own, not the repository's. */
const NOT_SYMBOLS = new Set(
  (
    'true false null undefined none nil self this super new return const let var function def class ' +
    'import export from async await if else for while switch case break continue try catch finally throw ' +
    'public private static void int string number boolean bool object any unknown never type interface enum'
  ).split(' '),
);

function symbolName(text: string): string | null {
  if (!IDENTIFIER.test(text)) return null;
  const name = text.replace(/\(\)$/, '');
  if (name.length < 3 || NOT_SYMBOLS.has(name.toLowerCase())) return null;
  return name;
}

/** The word after a one-token code span: "the `scripts` folder", "the `main` branch". */
function wordAfter(text: string, piece: Piece): string {
  const after = text.slice(piece.offset, piece.offset + piece.text.length + 24);
  return /^`+[^`]+`+\s+(\w+)/.exec(after)?.[1]?.toLowerCase() ?? '';
}
const directoryWord = (text: string, piece: Piece): boolean =>
  ['folder', 'directory', 'dir'].includes(wordAfter(text, piece));

// ---- extraction ----

/** The anchors of an entry, in order of first mention, deduplicated, at most MAX_ANCHORS_PER_ENTRY. */
export function extractAnchors(source: AnchorSource, options: ExtractOptions = {}): Anchor[] {
  const text = `${source.title}\n\n${source.body}`;
  const found: Array<{ at: number; anchor: Anchor }> = [];
  const parts = pieces(text);
  const paragraphAt = paragraphs(text);
  const filePaths: Array<{ at: number; paragraph: number; path: string }> = [];
  const symbolPieces: Array<{ piece: Piece; name: string }> = [];

  for (const piece of parts) {
    const claims = commandClaims(piece);
    for (const script of claims.scripts) found.push({ at: piece.offset, anchor: { kind: 'script', ...script } });
    for (const name of claims.binaries) found.push({ at: piece.offset, anchor: { kind: 'binary', name } });
    for (const name of claims.branches) found.push({ at: piece.offset, anchor: { kind: 'branch', name } });
    // A branch named in backticks is handled by branchMentions, never as a path.
    if (piece.code && wordAfter(text, piece) === 'branch') continue;
    const inCommand = claims.scripts.length + claims.binaries.length + claims.branches.length > 0;
    const tokens = [...piece.text.matchAll(/\S+/g)];
    for (const match of tokens) {
      const token = match[0];
      const at = piece.offset + (match.index ?? 0);
      // `origin/main` is a branch, not a directory.
      const remote = /^origin\/([\w./-]+)$/.exec(token);
      if (piece.code && remote && isBranchName(remote[1]!)) {
        found.push({ at, anchor: { kind: 'branch', name: remote[1]! } });
        continue;
      }
      const claim = readPathToken(token, piece.code, options.worktreeRoot);
      if (!claim) continue;
      // `make fixtures`: the script's name is not also a path.
      if (inCommand && !claim.path.includes('/') && !claim.directory && !/\.\w+$/.test(claim.path)) continue;
      found.push({ at, anchor: { kind: 'path', ...claim } });
      if (!claim.directory) filePaths.push({ at, paragraph: paragraphAt(at), path: claim.path });
    }
    if (piece.code && tokens.length === 1 && !inCommand) {
      const token = tokens[0]![0];
      const name = symbolName(token);
      if (directoryWord(text, piece)) {
        const claim = readPathToken(`${token}/`, true, options.worktreeRoot);
        if (claim) found.push({ at: piece.offset, anchor: { kind: 'path', ...claim } });
      } else if (name && !readPathToken(token, true, options.worktreeRoot)) symbolPieces.push({ piece, name });
    }
  }
  // A symbol is a claim only about a file the same paragraph names: tie it to the nearest one.
  const segments = new Set(filePaths.flatMap((file) => file.path.split('/')));
  for (const { piece, name } of symbolPieces) {
    // `scripts` beside `scripts/deploy.sh` names the directory, not something inside the file.
    if (segments.has(name)) continue;
    let best: { distance: number; path: string } | null = null;
    for (const file of filePaths) {
      if (file.paragraph !== piece.paragraph) continue;
      const distance = Math.abs(file.at - piece.offset);
      if (!best || distance < best.distance) best = { distance, path: file.path };
    }
    if (best) found.push({ at: piece.offset, anchor: { kind: 'symbol', symbol: name, path: best.path } });
  }
  for (const name of branchMentions(text)) found.push({ at: text.indexOf(name), anchor: { kind: 'branch', name } });
  for (const sha of commitMentions(text)) found.push({ at: text.indexOf(sha), anchor: { kind: 'commit', sha } });

  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  const anchors: Anchor[] = [];
  for (const { anchor } of found) {
    const key = anchorKey(anchor);
    if (seen.has(key)) continue;
    seen.add(key);
    anchors.push(anchor);
    if (anchors.length === MAX_ANCHORS_PER_ENTRY) break;
  }
  return anchors;
}
