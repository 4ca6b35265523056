// The source tree's import graph, and the rules it must keep: each module sits on a floor and
// imports only from its own floor or lower ones; a few pairs are ruled out outright; the hook's
// whole graph stays free of heavy packages; and no import chain comes back to where it started.
// Type-only imports count too: a circle of types is still a circle in the design.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Lowest first. A module may import modules on its own floor or on a lower one. */
export const FLOORS: ReadonlyArray<{ name: string; paths: readonly string[] }> = [
  // Shared helpers (errors, limits, home, text widths …): source/ground/ and every module directly in source/.
  { name: 'ground', paths: ['source/ground/', 'source/*'] },
  // The application's language, each API area declared once: its routes, its requests (zod
  // schemas) and its responses. The pi runtime and the store answer in it, so it sits below them;
  // the two texts the CLI and the screens share (a session, a runner plan) are written from it.
  { name: 'api', paths: ['source/api/', 'source/session-text.ts', 'source/runner-plan-text.ts'] },
  // What each client (Codex, Claude Code, pi) looks like: records, parsers, installers, the pi runtime.
  { name: 'hosts', paths: ['source/hosts/'] },
  // The databases and their commands: core.sqlite and memory-state.sqlite.
  { name: 'store', paths: ['source/store/', 'source/memory/', 'source/ledger/'] },
  { name: 'hook', paths: ['source/hook/'] },
  { name: 'workers', paths: ['source/workers/'] },
  { name: 'host', paths: ['source/host/'] },
  { name: 'client', paths: ['source/client/'] },
  // The MCP server a client starts: the memory reads, and the client for what it writes.
  { name: 'mcp', paths: ['source/mcp/'] },
  { name: 'screens', paths: ['source/screens/'] },
  { name: 'cli', paths: ['source/cli/'] },
];

/** Imports ruled out even where the floors would allow them: the UI and the CLI reach the store only through the client. */
export const FORBIDDEN: ReadonlyArray<{ from: string; to: string; why: string }> = [
  { from: 'source/screens/', to: 'source/store/', why: 'screens read and write through the application API' },
  { from: 'source/screens/', to: 'source/workers/', why: 'screens read and write through the application API' },
  {
    from: 'source/cli/',
    to: 'source/store/',
    why: 'commands reach the store through the client (host API, lease or read-only)',
  },
  {
    from: 'source/cli/',
    to: 'source/workers/',
    why: 'commands reach the store through the client (host API, lease or read-only)',
  },
];

/** The hook runs on every client event: its whole graph loads node:* and these packages only. */
export const HOOK_ENTRY = 'source/hook/main.ts';
/** better-sqlite3 for the store; @noble/hashes for short digests without node:crypto's load (ground/digests.ts). */
export const HOOK_PACKAGES: readonly string[] = ['better-sqlite3', '@noble/hashes'];

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

/** Every rule the graph breaks, one line each; empty when the house is in order. */
export function violations(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph) {
    const floor = floorOf(from);
    if (floor < 0) {
      found.push(`${from} is on no floor: add its folder to FLOORS in test/support/import-graph.ts`);
      continue;
    }
    for (const edge of edges) {
      if (isPackage(edge.to)) continue;
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
  for (const circle of circles(graph)) found.push(`import circle: ${[...circle, circle[0]].join(' → ')}`);
  return found;
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
