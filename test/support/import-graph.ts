// The source tree's import graph, and the rules it must keep: each module sits on a floor and
// imports only from its own floor or lower ones; a few pairs are ruled out outright (the UI, the
// CLI and the MCP server go through the API); the pure domain loads nothing with effects; the
// hook's whole graph stays on an explicit list of light modules and packages; SQL is written in
// store/** only; and no import chain comes back to where it started. Type-only imports count too
// (except for what the hook loads): a circle of types is still a circle in the design. Every known
// exception is listed with its reason, and an exception that excuses nothing fails the test.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Lowest first. A module may import modules on its own floor or on a lower one. */
export const FLOORS: ReadonlyArray<{ name: string; paths: readonly string[] }> = [
  // Shared helpers (errors, limits, home, text widths …): source/ground/ and every module directly in source/.
  { name: 'ground', paths: ['source/ground/', 'source/*'] },
  // The application's language, each API area declared once: its routes, its requests (zod
  // schemas) and its responses. The domain, the pi runtime and the store answer in it, so it sits below them;
  // the texts the CLI and the screens share (a session, a runner plan, an import) are written from it.
  {
    name: 'api',
    paths: [
      'source/api/',
      'source/session-text.ts',
      'source/runner-plan-text.ts',
      'source/waiting-text.ts',
      'source/import-text.ts',
    ],
  },
  // The memory half's pure domain (entry format, lint, extraction and adjudication rules, chunking,
  // contracts, RRF, plans): values in, values out, so every rule is testable without a disk.
  { name: 'domain', paths: ['source/memory/'] },
  // What each client (Codex, Claude Code, pi) looks like: records, parsers, installers, the pi runtime;
  // and the installer of the host itself as a per-user service (systemd, launchd).
  { name: 'hosts', paths: ['source/hosts/', 'source/service/'] },
  // The memory half's effects: safe file reads and the no-follow writer, the projection scan,
  // promotion apply, git/repository resolution, runner processes and their conformance.
  { name: 'effects', paths: ['source/effects/'] },
  // The databases: store/core (core.sqlite), store/memory (memory-state.sqlite), store/ledger, and
  // beside them the plumbing they share (database, transaction, command, migrations, the registry).
  { name: 'store', paths: ['source/store/'] },
  { name: 'hook', paths: ['source/hook/'] },
  // The orchestrators over the domain, the effects and the store: extract, promote, sync, the reads.
  { name: 'pipeline', paths: ['source/pipeline/'] },
  // Plumbing only: worker threads, their clients, the reply channel.
  { name: 'workers', paths: ['source/workers/'] },
  { name: 'host', paths: ['source/host/'] },
  { name: 'client', paths: ['source/client/'] },
  // The MCP server a client starts: the memory reads, and the client for what it writes.
  { name: 'mcp', paths: ['source/mcp/'] },
  { name: 'screens', paths: ['source/screens/'] },
  { name: 'cli', paths: ['source/cli/'] },
];

const THROUGH_API = 'they read and write through the application API (api/, client/), so one process owns each write';

/** Imports ruled out even where the floors would allow them. */
export const FORBIDDEN: ReadonlyArray<{ from: string; to: string; why: string }> = [
  ...['source/screens/', 'source/cli/', 'source/mcp/'].flatMap((from) =>
    ['source/store/', 'source/effects/', 'source/pipeline/', 'source/workers/'].map((to) => ({
      from,
      to,
      why: `${from.slice(7, -1)} never import ${to.slice(7, -1)}: ${THROUGH_API}`,
    })),
  ),
];

/**
 * Imports the rules above forbid that are still made, each with its reason: a known debt, listed
 * so that it is seen, and so that no new one slips in beside it. Remove an entry when its import
 * goes. None today: a new one needs a reason that holds, not a wish to skip the client layer.
 */
export const EXCEPTIONS: ReadonlyArray<{ from: string; to: string; why: string }> = [];

/** The packages the pure domain may load: hashing, schemas and text diffs compute, they touch nothing. */
export const DOMAIN_PACKAGES: readonly string[] = ['node:crypto', 'zod', 'diff'];
const DOMAIN = 'source/memory/';

/** The hook runs on every client event: its whole graph loads node:* and these packages only. */
export const HOOK_ENTRY = 'source/hook/main.ts';
/** better-sqlite3 for the store; @noble/hashes for short digests without node:crypto's load (ground/digests.ts). */
export const HOOK_PACKAGES: readonly string[] = ['better-sqlite3', '@noble/hashes'];

/**
 * The source modules the hook's graph may reach, with why each is safe on its fast path (light,
 * synchronous, no model, no thread). A module outside this list reached from the hook is a violation.
 */
export const HOOK_SAFE: ReadonlyArray<{ path: string; why: string }> = [
  { path: 'source/hook/', why: 'the hook itself' },
  { path: 'source/ground/', why: 'shared helpers, node:* only' },
  { path: 'source/*', why: 'shared helpers: errors, limits, home' },
  { path: 'source/api/common.ts', why: "the API's common language (receipts, client names), zod-free" },
  { path: 'source/memory/snapshot.ts', why: 'renders the session-start snapshot (pure)' },
  { path: 'source/memory/entry-format.ts', why: 'the entry format the snapshot renders (pure)' },
  {
    path: 'source/memory/consolidation/scene-format.ts',
    why: 'the scan that follows the files parses a changed scene file with it, as it does an entry file (pure)',
  },
  { path: 'source/memory/visible-text.ts', why: 'what the snapshot shows of a text (pure)' },
  { path: 'source/memory/fts-query.ts', why: 'term splitting used by the memory-state migrations (pure)' },
  { path: 'source/memory/query-expansion.ts', why: 'fts-query widens search words with it (pure, no imports)' },
  { path: 'source/memory/time-expression.ts', why: 'fts-query reads time expressions with it (pure, no imports)' },
  { path: 'source/effects/repository.ts', why: 'resolves the session scope from .git without spawning git' },
  {
    path: 'source/effects/memory-root.ts',
    why: "where a scope's memory root is, for the snapshot to follow its files",
  },
  { path: 'source/effects/safe-files.ts', why: 'no-follow reads of the memory files (node:fs only)' },
  {
    path: 'source/effects/approved-scan.ts',
    why: 'stamps the memory files and reads the changed ones: the snapshot follows the files',
  },
  { path: 'source/store/database.ts', why: 'opens a database file' },
  { path: 'source/store/migrations.ts', why: 'migrates a fresh store on first use' },
  { path: 'source/store/transaction.ts', why: 'the commit boundary' },
  { path: 'source/store/core/core-schema.ts', why: "core.sqlite's schema, migrated by the first hook" },
  { path: 'source/store/core/schema/', why: "core.sqlite's migration steps" },
  { path: 'source/store/core/indexed-text.ts', why: "a session-search row's shape and typed time, for core's v9 step" },
  { path: 'source/store/core/inbox-writes.ts', why: 'the inbox rows the hook appends' },
  { path: 'source/store/core/pi-inbox.ts', why: "pi's event rows and its take of a refreshed snapshot" },
  { path: 'source/store/memory/state-database.ts', why: 'opens memory-state read-only for the snapshot' },
  { path: 'source/store/memory/state-schema.ts', why: "memory-state's schema version check" },
  { path: 'source/store/memory/schema/', why: "memory-state's migration steps (imported by its schema)" },
  { path: 'source/store/memory/recall-terms.ts', why: 'term counts used by the v6 migration step' },
  { path: 'source/store/memory/snapshot-read.ts', why: 'reads the snapshot entries (read-only, bounded)' },
  {
    path: 'source/store/memory/verdict-read.ts',
    why: "reads the stored verdicts of the snapshot's entries (primary-key probes, zod-free): stale ones are left out",
  },
  {
    path: 'source/store/memory/approved-follow.ts',
    why: 'brings the projection up to date with changed memory files before the snapshot (bounded)',
  },
  { path: 'source/store/memory/approved-sync.ts', why: 'stores a scan of a memory root (zod-free SQL)' },
  {
    path: 'source/store/memory/doctrine-sync.ts',
    why: 'stores the doctrine files of a scan with their basis (zod-free SQL)',
  },
  {
    path: 'source/store/memory/doctrine-reads.ts',
    why: "reads the doctrine whose basis holds for the snapshot's doctrine line (read-only, a few short rows)",
  },
  { path: 'source/store/memory/match-words.ts', why: "search's word match, shared by the doctrine read (pure)" },
  { path: 'source/store/ledger/', why: 'the ledger events the hook records' },
];

/** SQL is written in store/** only; these files write it elsewhere, each with its reason (SQL that is no store's). */
export const SQL_EXCEPTIONS: ReadonlyArray<{ path: string; why: string }> = [
  {
    path: 'source/host/lease.ts',
    why: "the host lease is its own one-table lock file, not one of the store's databases",
  },
];

export interface ImportEdge {
  to: string;
  typeOnly: boolean;
}

export type ImportGraph = Map<string, ImportEdge[]>;

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g;

/** Every .ts/.tsx file under `dir` (repository-relative paths) with its static and dynamic imports. */
export function readImportGraph(root: string, dir = 'source'): ImportGraph {
  const graph: ImportGraph = new Map();
  const visit = (relativeDir: string) => {
    for (const entry of readdirSync(join(root, relativeDir), { withFileTypes: true })) {
      const path = `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else if (/\.tsx?$/.test(entry.name)) graph.set(path, importsOf(root, path));
    }
  };
  visit(dir);
  return graph;
}

function importsOf(root: string, path: string): ImportEdge[] {
  const text = readFileSync(join(root, path), 'utf8');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[2] ?? match[3]!;
    if (!specifier.startsWith('.')) {
      edges.push({ to: specifier, typeOnly: Boolean(match[1]) });
      continue;
    }
    const target = normalize(join(dirname(path), specifier)).replace(/\.js$/, '');
    const resolved = [`${target}.ts`, `${target}.tsx`].find((candidate) => exists(root, candidate)) ?? `${target}.ts`;
    edges.push({ to: relative('.', resolved), typeOnly: Boolean(match[1]) });
  }
  return edges;
}

function exists(root: string, path: string): boolean {
  try {
    readFileSync(join(root, path));
    return true;
  } catch {
    return false;
  }
}

/** How specifically `pattern` names `path`: the length of the match, or -1 for none. "dir/*" is a direct child of dir. */
function matchLength(pattern: string, path: string): number {
  if (pattern.endsWith('/*'))
    return path.startsWith(pattern.slice(0, -1)) && !path.slice(pattern.length - 1).includes('/')
      ? pattern.length - 1
      : -1;
  if (pattern.endsWith('/')) return path.startsWith(pattern) ? pattern.length : -1;
  return path === pattern ? pattern.length + 1 : -1;
}

/** The floor of a module: the one whose pattern names it most specifically, or -1. */
export function floorOf(path: string): number {
  let best = -1;
  let bestLength = -1;
  FLOORS.forEach((floor, index) => {
    for (const pattern of floor.paths) {
      const length = matchLength(pattern, path);
      if (length > bestLength) {
        best = index;
        bestLength = length;
      }
    }
  });
  return best;
}

const isPackage = (specifier: string) => !specifier.startsWith('source/');
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const names = (pattern: string, path: string) => matchLength(pattern, path) >= 0;
const excepted = (from: string, to: string) =>
  EXCEPTIONS.some((exception) => names(exception.from, from) && names(exception.to, to));

/**
 * Every rule the graph breaks, one line each; empty when the house is in order. `sqlFiles`: the
 * modules that write SQL (readSqlFiles).
 */
export function violations(graph: ImportGraph, sqlFiles: ReadonlySet<string> = new Set()): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph) {
    const floor = floorOf(from);
    if (floor < 0) {
      found.push(`${from} is on no floor: add its folder to FLOORS in test/support/import-graph.ts`);
      continue;
    }
    for (const edge of edges) {
      if (isPackage(edge.to)) {
        if (from.startsWith(DOMAIN) && !DOMAIN_PACKAGES.includes(packageName(edge.to)))
          found.push(
            `${from} (domain) loads ${edge.to}: the domain has no effects (no files, processes or databases), so its rules are tested on values`,
          );
        continue;
      }
      if (excepted(from, edge.to)) continue;
      const target = floorOf(edge.to);
      if (target > floor)
        found.push(`${from} (${FLOORS[floor]!.name}) imports ${edge.to} (${FLOORS[target]!.name}, a higher floor)`);
      const rule = FORBIDDEN.find((r) => from.startsWith(r.from) && edge.to.startsWith(r.to));
      if (rule) found.push(`${from} imports ${edge.to}: ${rule.why}`);
    }
  }
  found.push(
    ...hookPackages(graph).map(
      (name) =>
        `the hook's graph (from ${HOOK_ENTRY}) loads ${name}; it may load node:* and ${HOOK_PACKAGES.join(', ')} only`,
    ),
  );
  for (const module of hookModules(graph))
    if (!HOOK_SAFE.some((safe) => names(safe.path, module)))
      found.push(
        `the hook's graph (from ${HOOK_ENTRY}) reaches ${module}, which is not on HOOK_SAFE: the hook runs on every client event and loads only what its fast path needs`,
      );
  for (const path of [...sqlFiles].sort())
    if (!path.startsWith('source/store/') && !SQL_EXCEPTIONS.some((exception) => exception.path === path))
      found.push(
        `${path} writes SQL: SQL lives in source/store/** only, one file per aggregate, so a schema change has one place to look`,
      );
  for (const circle of circles(graph)) found.push(`import circle: ${[...circle, circle[0]].join(' → ')}`);
  return found;
}

/** Exceptions that no longer match anything: each must be removed with the import or the SQL it excused. */
export function staleExceptions(graph: ImportGraph, sqlFiles: ReadonlySet<string>): string[] {
  const stale: string[] = [];
  for (const exception of EXCEPTIONS) {
    const used = [...graph].some(
      ([from, edges]) =>
        names(exception.from, from) &&
        edges.some(
          (edge) =>
            !isPackage(edge.to) &&
            names(exception.to, edge.to) &&
            (floorOf(edge.to) > floorOf(from) ||
              FORBIDDEN.some((r) => from.startsWith(r.from) && edge.to.startsWith(r.to))),
        ),
    );
    if (!used) stale.push(`EXCEPTIONS: ${exception.from} → ${exception.to} excuses nothing any more`);
  }
  for (const exception of SQL_EXCEPTIONS)
    if (!sqlFiles.has(exception.path)) stale.push(`SQL_EXCEPTIONS: ${exception.path} writes no SQL any more`);
  return stale;
}

/** A string that starts an SQL statement: what a module writes when it speaks to a database. */
const SQL =
  /['"`]\s*(?:SELECT\s|INSERT\s+(?:OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|(?:CREATE|DROP|ALTER)\s+(?:TEMP\s+|VIRTUAL\s+|UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\s|BEGIN(?:\s+(?:IMMEDIATE|EXCLUSIVE))?['"`;])/;

/** The modules under `dir` that contain an SQL statement. */
export function readSqlFiles(root: string, dir = 'source'): Set<string> {
  const found = new Set<string>();
  const visit = (relativeDir: string) => {
    for (const entry of readdirSync(join(root, relativeDir), { withFileTypes: true })) {
      const path = `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else if (/\.tsx?$/.test(entry.name) && SQL.test(readFileSync(join(root, path), 'utf8'))) found.add(path);
    }
  };
  visit(dir);
  return found;
}

/** The source modules the hook's entry reaches, directly or not (type-only imports load nothing). */
export function hookModules(graph: ImportGraph, entry = HOOK_ENTRY): string[] {
  const seen = new Set<string>();
  const walk = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const edge of graph.get(path) ?? []) if (!isPackage(edge.to) && !edge.typeOnly) walk(edge.to);
  };
  if (graph.has(entry)) walk(entry);
  return [...seen].sort();
}

/** Packages outside node:* and HOOK_PACKAGES that the hook's entry reaches, directly or not. */
export function hookPackages(graph: ImportGraph, entry = HOOK_ENTRY): string[] {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const edge of graph.get(path) ?? []) {
      if (!isPackage(edge.to)) walk(edge.to);
      else if (!edge.typeOnly && !edge.to.startsWith('node:') && !HOOK_PACKAGES.includes(packageName(edge.to)))
        packages.add(packageName(edge.to));
    }
  };
  if (graph.has(entry)) walk(entry);
  return [...packages].sort();
}

/** The strongly connected components of more than one module (or a module importing itself). */
export function circles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const { to } of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfImport = (graph.get(node) ?? []).some((edge) => edge.to === node);
    if (component.length > 1 || selfImport) found.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}
