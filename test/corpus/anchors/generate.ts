// Writes the labelled staleness set: `node --import tsx test/corpus/anchors/generate.ts test|train`.
// Each row is a small repository (files), an approved entry about it, a change to the worktree, and
// whether that change makes the entry stale (one of its concrete claims about the repository no
// longer holds). Names come from seeded pools; the sentences were written for this set. Phrasings
// are divided between the splits by position (even → test, odd → train), so tuning on train never
// sees the test split's wording. The test split was generated and committed first, before the
// extractor and the verifier existed, and is never changed afterwards.
//
// Placeholders in an entry's text, filled by the bench once the base commit exists:
//   {{HEAD}} / {{HEAD7}}  the base commit (full / 7 characters): an object of the repository
//   {{GONE}} / {{GONE7}}  a commit id that is not (history rewritten, or another clone's commit)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../support/seeded-random.js';

export type Change =
  | { op: 'delete'; path: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'write'; path: string; content: string }
  | { op: 'commit' };

export interface AnchorCase {
  id: string;
  kind: string;
  stale: boolean;
  files: Record<string, string>;
  entry: { title: string; body: string };
  change: Change[];
}

type Pick = <T>(items: readonly T[]) => T;

const DIRS = ['src', 'lib', 'app', 'packages/core/src', 'server', 'tools/build', 'services/api'] as const;
const MODULES = ['config', 'loader', 'billing', 'session', 'router', 'cache', 'auth', 'exporter', 'queue', 'mailer'];
const EXTS = ['ts', 'js', 'py', 'go', 'rs'] as const;
const VERBS = ['load', 'parse', 'build', 'resolve', 'flush', 'render', 'merge', 'open'];
const NOUNS = ['Config', 'Invoice', 'Session', 'Route', 'Entry', 'Batch', 'Token', 'Manifest'];
const NPM_SCRIPTS = ['lint:legacy', 'test:unit', 'build:docs', 'db:migrate', 'typecheck', 'e2e:smoke', 'gen:types'];
const MAKE_TARGETS = ['fixtures', 'proto', 'release', 'clean-cache', 'bundle', 'vendor'];
const JUST_RECIPES = ['deploy-staging', 'seed-db', 'fmt-all', 'snapshot', 'bench-quick'];
const PY_SCRIPTS = ['cm-report', 'ingest-logs', 'rebuild-index', 'audit-users'];

interface World {
  dir: string;
  module: string;
  ext: string;
  file: string;
  other: string;
  symbol: string;
  otherSymbol: string;
  npm: string;
  npmOther: string;
  make: string;
  makeOther: string;
  just: string;
  justOther: string;
  py: string;
  pyOther: string;
  files: Record<string, string>;
}

function source(ext: string, symbols: string[]): string {
  const lines = symbols.map((name) => {
    if (ext === 'py') return `def ${name}(value):\n    return value\n`;
    if (ext === 'go') return `func ${name}(value string) string {\n\treturn value\n}\n`;
    if (ext === 'rs') return `pub fn ${name}(value: &str) -> &str {\n    value\n}\n`;
    return `export function ${name}(value) {\n  return value;\n}\n`;
  });
  return `// generated for the staleness set\n${lines.join('\n')}`;
}

const packageJson = (scripts: string[]): string =>
  `${JSON.stringify({ name: 'sample', private: true, scripts: Object.fromEntries(scripts.map((s) => [s, `node tools/run.js ${s}`])), devDependencies: { vitest: '^1.0.0' } }, null, 2)}\n`;
const makefile = (targets: string[]): string =>
  `.PHONY: ${targets.join(' ')}\n\n${targets.map((t) => `${t}:\n\t@echo ${t}\n`).join('\n')}`;
const justfile = (recipes: string[]): string => recipes.map((r) => `${r}:\n    echo ${r}\n`).join('\n');
const pyproject = (scripts: string[]): string =>
  `[project]\nname = "sample"\nversion = "0.1.0"\ndependencies = ["requests>=2"]\n\n[project.scripts]\n${scripts.map((s) => `${s} = "sample.cli:${s.replace(/-/g, '_')}"`).join('\n')}\n`;

function makeWorld(pick: Pick, random: () => number): World {
  const dir = pick(DIRS);
  const module = pick(MODULES);
  const ext = pick(EXTS);
  let otherModule = pick(MODULES);
  while (otherModule === module) otherModule = pick(MODULES);
  const symbol = `${pick(VERBS)}${pick(NOUNS)}`;
  let otherSymbol = `${pick(VERBS)}${pick(NOUNS)}`;
  while (otherSymbol === symbol) otherSymbol = `${pick(VERBS)}${pick(NOUNS)}Now`;
  const two = <T>(items: readonly T[]): [T, T] => {
    const a = pick(items);
    let b = pick(items);
    while (b === a) b = pick(items);
    return [a, b];
  };
  const [npm, npmOther] = two(NPM_SCRIPTS);
  const [make, makeOther] = two(MAKE_TARGETS);
  const [just, justOther] = two(JUST_RECIPES);
  const [py, pyOther] = two(PY_SCRIPTS);
  const file = `${dir}/${module}.${ext}`;
  const other = `${dir}/${otherModule}.${ext}`;
  const files: Record<string, string> = {
    [file]: source(ext, [symbol, `helper${Math.floor(random() * 90 + 10)}`]),
    [other]: source(ext, [otherSymbol]),
    'package.json': packageJson([npm, npmOther, 'test']),
    Makefile: makefile([make, makeOther]),
    justfile: justfile([just, justOther]),
    'pyproject.toml': pyproject([py, pyOther]),
    'docs/guide.md': '# Guide\n\nHow the sample project is laid out.\n',
    'scripts/deploy.sh': '#!/bin/sh\necho deploy\n',
    'tools/run.js': 'console.log(process.argv.slice(2).join(" "));\n',
  };
  return {
    dir,
    module,
    ext,
    file,
    other,
    symbol,
    otherSymbol,
    npm,
    npmOther,
    make,
    makeOther,
    just,
    justOther,
    py,
    pyOther,
    files,
  };
}

type Made = Omit<AnchorCase, 'id' | 'files'> & { files?: Record<string, string> };
type Template = (w: World) => Made;

const _without = (items: string[], gone: string): string[] => items.filter((item) => item !== gone);
const deleteDir = (w: World, dir: string): Change[] =>
  Object.keys(w.files)
    .filter((path) => path.startsWith(`${dir}/`))
    .map((path) => ({ op: 'delete' as const, path }));

// Each kind has phrasings; phrasing i goes to the test split when i is even, to train when odd.
const KINDS: Array<{ kind: string; stale: boolean; phrasings: Template[] }> = [
  {
    kind: 'file-deleted',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.module} lives in one file`,
          body: `Everything about ${w.module} is in \`${w.file}\`; change it there and nowhere else.`,
        },
        change: [{ op: 'delete', path: w.file }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Where ${w.module} starts`,
          body: `The ${w.module} code starts in ${w.file} and is called once at boot.`,
        },
        change: [{ op: 'delete', path: w.file }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Read ${w.module} before editing`,
          body: `Before touching anything near ${w.module}, read \`${w.file}\` top to bottom; the comments there explain the retry rules.`,
        },
        change: [{ op: 'delete', path: w.file }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.module} owner file`,
          body: `When a ${w.module} bug is reported, the fix nearly always goes in ${w.file}.`,
        },
        change: [{ op: 'delete', path: w.file }, { op: 'commit' }],
      }),
    ],
  },
  {
    kind: 'file-renamed',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Edit ${w.module} settings`,
          body: `Settings for ${w.module} are declared in \`${w.file}\` and read at start-up.`,
        },
        change: [{ op: 'rename', from: w.file, to: `${w.dir}/${w.module}-next.${w.ext}` }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.module} entry point`,
          body: `Use ${w.file} as the entry point when debugging ${w.module}.`,
        },
        change: [{ op: 'rename', from: w.file, to: `legacy/${w.module}.${w.ext}` }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Hot path of ${w.module}`,
          body: `The hot path is \`${w.file}:12\`; keep allocations out of it.`,
        },
        change: [{ op: 'rename', from: w.file, to: `${w.dir}/core-${w.module}.${w.ext}` }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.module} tests mirror the source`,
          body: `Tests for ${w.module} mirror the layout of ./${w.file} exactly.`,
        },
        change: [{ op: 'rename', from: w.file, to: `${w.dir}/${w.module}/index.${w.ext}` }],
      }),
    ],
  },
  {
    kind: 'directory-removed',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: 'Where the code lives',
          body: `All application code is under \`${w.dir}/\`; nothing else is compiled.`,
        },
        change: deleteDir(w, w.dir),
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: 'Deploy helpers',
          body: `Shell helpers for releases sit in the \`scripts\` folder, e.g. \`scripts/deploy.sh\`.`,
        },
        change: deleteDir(w, 'scripts'),
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: 'Docs folder', body: `Long-form documentation goes in docs/ as Markdown, one page per topic.` },
        change: deleteDir(w, 'docs'),
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: 'Source root', body: `Imports are relative to ${w.dir}/ — never add a path alias.` },
        change: deleteDir(w, w.dir),
      }),
    ],
  },
  {
    kind: 'npm-script-removed',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Run ${w.npm} before pushing`,
          body: `Always run \`npm run ${w.npm}\` before pushing; CI runs the same thing.`,
        },
        change: [{ op: 'write', path: 'package.json', content: packageJson([w.npmOther, 'test']) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `The ${w.npm} step`,
          body: `After editing types, pnpm run ${w.npm} regenerates what the editor needs.`,
        },
        change: [{ op: 'write', path: 'package.json', content: packageJson([w.npmOther, 'test']) }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: 'Local checks',
          body: `The local check is:\n\n\`\`\`sh\nyarn run ${w.npm}\n\`\`\`\n\nIt takes about a minute.`,
        },
        change: [{ op: 'write', path: 'package.json', content: packageJson([`${w.npm}-v2`, w.npmOther, 'test']) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Use the ${w.npm} script`,
          body: `Prefer npm run ${w.npm} over calling the tool directly: it sets the right flags.`,
        },
        change: [{ op: 'write', path: 'package.json', content: packageJson([w.npmOther]) }],
      }),
    ],
  },
  {
    kind: 'make-target-removed',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Regenerate with make ${w.make}`,
          body: `When the schema changes, run \`make ${w.make}\` and commit the result.`,
        },
        change: [{ op: 'write', path: 'Makefile', content: makefile([w.makeOther]) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.make} target`,
          body: `The build has a target for this:\n\n\`\`\`\nmake -j4 ${w.make}\n\`\`\``,
        },
        change: [{ op: 'write', path: 'Makefile', content: makefile([w.makeOther, 'all']) }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: 'Release steps', body: `Releases start with \`make ${w.make}\`, then the tag is pushed.` },
        change: [{ op: 'write', path: 'Makefile', content: makefile([w.makeOther]) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: 'Makefile entry',
          body: `\`make ${w.make}\` is the only supported way to refresh vendored files.`,
        },
        change: [{ op: 'delete', path: 'Makefile' }],
      }),
    ],
  },
  {
    kind: 'just-recipe-removed',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: `just ${w.just}`, body: `To do it by hand, run \`just ${w.just}\` from the repository root.` },
        change: [{ op: 'write', path: 'justfile', content: justfile([w.justOther]) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: `Recipe ${w.just}`, body: `The recipe:\n\n\`\`\`bash\njust ${w.just}\n\`\`\`` },
        change: [{ op: 'write', path: 'justfile', content: justfile([w.justOther, 'help']) }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: 'Task runner', body: `Tasks go through just; for this one it is \`just ${w.just}\`.` },
        change: [{ op: 'write', path: 'justfile', content: justfile([w.justOther]) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `The ${w.just} recipe`,
          body: `Never do this step manually: \`just ${w.just}\` does it and checks the result.`,
        },
        change: [{ op: 'delete', path: 'justfile' }],
      }),
    ],
  },
  {
    kind: 'python-script-removed',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.py} command`,
          body: `Reports are produced with \`uv run ${w.py}\`; do not call the module directly.`,
        },
        change: [{ op: 'write', path: 'pyproject.toml', content: pyproject([w.pyOther]) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Console script ${w.py}`,
          body: `The console script is started like this:\n\n\`\`\`\npoetry run ${w.py} --dry-run\n\`\`\``,
        },
        change: [{ op: 'write', path: 'pyproject.toml', content: pyproject([w.pyOther, 'serve']) }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: `Run ${w.py} weekly`, body: `Run \`pdm run ${w.py}\` once a week against staging.` },
        change: [{ op: 'write', path: 'pyproject.toml', content: pyproject([w.pyOther]) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.py} lives in pyproject`,
          body: `\`uv run ${w.py}\` is declared in pyproject.toml under project scripts.`,
        },
        change: [{ op: 'write', path: 'pyproject.toml', content: pyproject([w.pyOther]) }],
      }),
    ],
  },
  {
    kind: 'sha-gone',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.module} regression`,
          body: `The ${w.module} regression came in with commit {{GONE7}}; read its message before reverting.`,
        },
        change: [],
      }),
      (_w) => ({
        kind: '',
        stale: true,
        entry: { title: 'Known good build', body: `The last known good build was {{GONE}}.` },
        change: [{ op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Why ${w.module} retries`,
          body: `Retries were added in \`{{GONE7}}\` after the outage; see that diff for the reasoning.`,
        },
        change: [],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: 'Bisect start', body: `Bisect from {{GONE7}} (good) to HEAD when ${w.module} breaks.` },
        change: [],
      }),
    ],
  },
  {
    kind: 'symbol-removed',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Use ${w.symbol}`,
          body: `Call \`${w.symbol}\` from \`${w.file}\` instead of reading the environment yourself.`,
        },
        change: [{ op: 'write', path: w.file, content: source(w.ext, ['replacedLegacy']) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.symbol} is the only way in`,
          body: `In ${w.file}, \`${w.symbol}()\` is the single entry point; everything else is private.`,
        },
        change: [{ op: 'write', path: w.file, content: source(w.ext, ['entryPoint']) }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `Keep ${w.symbol} pure`,
          body: `\`${w.symbol}\` (in \`${w.file}\`) must stay free of I/O so the tests can call it.`,
        },
        change: [{ op: 'write', path: w.file, content: source(w.ext, ['somethingElse']) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.symbol} caching`,
          body: `Results of \`${w.symbol}\` are cached per request; see ${w.file}.`,
        },
        change: [{ op: 'write', path: w.file, content: source(w.ext, ['cachedValue']) }],
      }),
    ],
  },
  {
    kind: 'one-of-several-fails',
    stale: true,
    phrasings: [
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.module} workflow`,
          body: `Edit \`${w.file}\`, then run \`npm run ${w.npm}\` and \`make ${w.make}\`.`,
        },
        change: [{ op: 'write', path: 'Makefile', content: makefile([w.makeOther]) }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: { title: `${w.module} and helpers`, body: `${w.module} is split between ${w.file} and ${w.other}.` },
        change: [{ op: 'delete', path: w.other }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: 'Deploy path',
          body: `Deploys run \`./scripts/deploy.sh\` after \`just ${w.just}\`; docs are in docs/guide.md.`,
        },
        change: [{ op: 'delete', path: 'scripts/deploy.sh' }],
      }),
      (w) => ({
        kind: '',
        stale: true,
        entry: {
          title: `${w.module} checks`,
          body: `Touching \`${w.file}\` means running \`npm run ${w.npm}\`; \`npm run ${w.npmOther}\` is optional.`,
        },
        change: [{ op: 'write', path: 'package.json', content: packageJson([w.npm, 'test']) }],
      }),
    ],
  },
  // ---- not stale ----
  {
    kind: 'unrelated-change',
    stale: false,
    phrasings: [
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `${w.module} lives in one file`, body: `Everything about ${w.module} is in \`${w.file}\`.` },
        change: [{ op: 'delete', path: w.other }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `Run ${w.npm}`, body: `Run \`npm run ${w.npm}\` before pushing.` },
        change: [{ op: 'write', path: 'package.json', content: packageJson([w.npm, 'test']) }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `make ${w.make}`, body: `\`make ${w.make}\` refreshes generated code.` },
        change: [{ op: 'write', path: 'Makefile', content: makefile([w.make, 'all']) }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: 'Docs', body: `Documentation goes in docs/guide.md, written in plain English.` },
        change: [
          { op: 'delete', path: 'scripts/deploy.sh' },
          { op: 'rename', from: w.other, to: `${w.dir}/moved.${w.ext}` },
        ],
      }),
    ],
  },
  {
    kind: 'edited-still-holds',
    stale: false,
    phrasings: [
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `Use ${w.symbol}`, body: `Call \`${w.symbol}\` from \`${w.file}\` for this.` },
        change: [{ op: 'write', path: w.file, content: source(w.ext, ['prelude', w.symbol, 'postlude']) }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `${w.just} recipe`, body: `Run \`just ${w.just}\` from the root.` },
        change: [
          { op: 'write', path: 'justfile', content: `${justfile([w.justOther, w.just])}\n# reordered\n` },
          { op: 'commit' },
        ],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `${w.py}`, body: `\`uv run ${w.py}\` produces the weekly report.` },
        change: [{ op: 'write', path: 'pyproject.toml', content: pyproject([w.py, 'extra-tool']) }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `${w.symbol} in ${w.module}`, body: `In ${w.file}, \`${w.symbol}()\` validates input first.` },
        change: [{ op: 'write', path: w.file, content: `${source(w.ext, [w.symbol])}\n// a later edit\n` }],
      }),
    ],
  },
  {
    kind: 'no-anchor',
    stale: false,
    phrasings: [
      (w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Review etiquette',
          body: 'Make sure reviews are small and/or split by topic; just ask if unsure. We use Node.js 20.',
        },
        change: [{ op: 'delete', path: w.file }],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Tone',
          body: 'Error messages say what happened and what to do next, in one sentence each. Read/write access is per team.',
        },
        change: [{ op: 'delete', path: 'package.json' }],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Commits',
          body: 'Commit messages start with a verb and name the area, e.g. "config: drop the legacy loader".',
        },
        change: [{ op: 'delete', path: 'Makefile' }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Client/server split',
          body: 'Keep the client/server boundary thin; just make the request and let the server decide.',
        },
        change: deleteDir(w, w.dir),
      }),
    ],
  },
  {
    kind: 'not-in-worktree',
    stale: false,
    phrasings: [
      (w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Hosts file',
          body: 'Local names are set in `/etc/hosts`; the registry token lives in `~/.npmrc`.',
        },
        change: [{ op: 'delete', path: w.other }],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Shared config',
          body: 'The sibling checkout provides `../shared/config.json`; do not copy it in.',
        },
        change: [],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Setup docs',
          body: 'Setup is documented at https://example.com/docs/setup/install.html and mirrored at www.example.org/setup/guide.md.',
        },
        change: [{ op: 'delete', path: 'docs/guide.md' }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Patterns',
          body: `Test files match \`${w.dir}/**/*.test.${w.ext}\`; a package's entry is \`<package>/index.${w.ext}\` and caches go in \`$HOME/.cache/sample\`.`,
        },
        change: [],
      }),
    ],
  },
  {
    kind: 'hex-not-a-commit',
    stale: false,
    phrasings: [
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Debug marker',
          body: 'The allocator fills freed memory with deadbeef and the default port is 8080.',
        },
        change: [],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Fixture digest',
          body: 'The empty fixture has md5 d41d8cd98f00b204e9800998ecf8427e and build number 20240611.',
        },
        change: [],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Colours',
          body: 'Brand colour is #3f9a2c and the accent is #ffaa00; the facade class wraps them.',
        },
        change: [],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Request ids',
          body: 'A request id looks like 550e8400-e29b-41d4-a716-446655440000; log it with every error.',
        },
        change: [],
      }),
    ],
  },
  {
    kind: 'sha-still-there',
    stale: false,
    phrasings: [
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: `${w.module} baseline`, body: `Benchmarks compare against commit {{HEAD7}}.` },
        change: [{ op: 'delete', path: w.other }, { op: 'commit' }],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: { title: 'Import commit', body: `The repository was imported at {{HEAD}}; older history is elsewhere.` },
        change: [{ op: 'write', path: 'docs/guide.md', content: '# Guide\n\nRewritten.\n' }, { op: 'commit' }],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: 'Format switch', body: `Since \`{{HEAD7}}\` the ${w.module} files use tabs.` },
        change: [],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Revert note',
          body: `If ${w.module} misbehaves, {{HEAD7}} is the commit to look at first, then ${w.file}.`,
        },
        change: [{ op: 'rename', from: w.other, to: `${w.dir}/renamed.${w.ext}` }],
      }),
    ],
  },
  {
    kind: 'version-and-domain',
    stale: false,
    phrasings: [
      (_w) => ({
        kind: '',
        stale: false,
        entry: { title: 'Versions', body: 'We pin `v2.3.1` of the client and talk to `api.example.com`.' },
        change: [],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Runtime',
          body: 'Production runs on Node.js 20.11 with `next.config.js` defaults left alone in upstream examples only.',
        },
        change: [],
      }),
      (w) => ({
        kind: '',
        stale: false,
        entry: { title: 'Identifiers', body: 'Name booleans like `isReady` or `hasToken`; avoid `flag`.' },
        change: [{ op: 'delete', path: w.file }],
      }),
      (_w) => ({
        kind: '',
        stale: false,
        entry: {
          title: 'Dependencies',
          body: 'Use `npx vitest` for one-off runs; 1.2.3 is the minimum version we accept.',
        },
        change: [],
      }),
    ],
  },
];

// Test phrasings sit at even positions, train at odd ones; `next.config.js` above is a mention of
// an upstream example file that does not exist here: a known hard case, labelled not stale.

export function generate(split: 'test' | 'train'): AnchorCase[] {
  const random = seededRandom(split === 'test' ? 290_001 : 290_002);
  const pick: Pick = (items) => items[Math.floor(random() * items.length)]!;
  const cases: AnchorCase[] = [];
  const instances = 4;
  for (const { kind, stale, phrasings } of KINDS) {
    phrasings.forEach((template, position) => {
      if ((position % 2 === 0) !== (split === 'test')) return;
      for (let n = 0; n < instances; n++) {
        const world = makeWorld(pick, random);
        const made = template(world);
        cases.push({
          id: `${split}-${kind}-${position}-${n}`,
          kind,
          stale,
          files: { ...world.files, ...made.files },
          entry: made.entry,
          change: made.change,
        });
      }
    });
  }
  return cases;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const split = process.argv[2];
  if (split !== 'test' && split !== 'train') throw new Error('usage: generate.ts test|train');
  const out = join(dirname(fileURLToPath(import.meta.url)), `${split}.jsonl`);
  writeFileSync(
    out,
    `${generate(split)
      .map((row) => JSON.stringify(row))
      .join('\n')}\n`,
  );
  console.log(`${out}: ${generate(split).length} cases`);
}
