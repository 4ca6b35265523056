// What the published package holds and needs: a license, no unused source maps, pi optional.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { PI_PACKAGE, resolvePiCommand } from '../../source/hosts/pi/pi-command.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as Record<
  string,
  Record<string, string> | string
>;
/** The pages a reader of the repository reads: the README and every page of docs/. */
const PAGES = ['README.md', ...readdirSync(`${ROOT}docs`).map((name) => `docs/${name}`)];

describe('the package', () => {
  it('packs bin, dist and LICENSE, without source maps (nothing runs with --enable-source-maps)', () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
    ) as { files: { path: string }[] }[];
    const files = packed[0]!.files.map((file) => file.path);
    assert.ok(files.includes('LICENSE'));
    assert.ok(files.includes('dist/cli/bundle.mjs') && files.includes('dist/hook.cjs'), 'the bundles are in');
    assert.deepEqual(
      files.filter((path) => path.endsWith('.map')),
      [],
    );
    for (const path of [
      'bin/common-memory.cjs',
      ...files.filter((file) => file.endsWith('.mjs') || file.endsWith('.cjs')),
    ]) {
      assert.doesNotMatch(readFileSync(`${ROOT}${path}`, 'utf8'), /enable-source-maps|setSourceMapsEnabled/, path);
    }
    assert.equal(manifest['license'], 'MIT');
    assert.match(readFileSync(`${ROOT}LICENSE`, 'utf8'), /^MIT License/);
  });

  it('pi is an optional dependency that a clean install (npm ci) still installs', () => {
    assert.equal((manifest['dependencies'] as Record<string, string>)[PI_PACKAGE], undefined);
    assert.equal((manifest['optionalDependencies'] as Record<string, string>)[PI_PACKAGE], '0.73.1');
    const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as {
      packages: Record<string, { optional?: boolean; optionalDependencies?: Record<string, string> }>;
    };
    assert.equal(lock.packages['']!.optionalDependencies?.[PI_PACKAGE], '0.73.1');
    assert.equal(lock.packages[`node_modules/${PI_PACKAGE}`]?.optional, true);
    assert.doesNotMatch(
      readFileSync(`${ROOT}.ci/run`, 'utf8'),
      /--omit[= ]optional|--no-optional/,
      'CI installs optional dependencies (the tests drive the real pi)',
    );
  });

  it('without pi, starting an agent says what is missing, how to get it, and that capture does not need it', () => {
    const missing = () => {
      throw new Error(`Cannot find package '${PI_PACKAGE}'`);
    };
    assert.throws(
      () => resolvePiCommand({}, missing),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'runtime_failed');
        assert.match(error.message, /optional dependency/);
        assert.match(error.message, /without --omit=optional/);
        assert.match(error.message, /Capture from Codex and Claude Code does not need it/);
        return true;
      },
    );
    assert.ok(resolvePiCommand({}).args[0]!.endsWith('.js'), 'installed here, it resolves');
  });

  it('README: at most 200 lines, two quick-start commands, a throwaway trial, a first memory end to end', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    assert.ok(readme.split('\n').length <= 200, `README has ${readme.split('\n').length} lines`);
    const quick = readme.slice(readme.indexOf('## Quick start'));
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(quick)![1]!.trim().split('\n');
    assert.equal(firstBlock.length, 2, firstBlock.join('\n'));
    assert.match(quick, /COMMON_MEMORY_HOME=\$\(mktemp -d\) npm start/);
    for (const step of [
      'install claude',
      'flush',
      'memory review',
      'memory prepare',
      'memory approve',
      'memory promote',
    ])
      assert.ok(readme.includes(`common-memory ${step}`), step);
    for (const section of ['### Privacy', '### Supported platforms']) assert.ok(readme.includes(section), section);
  });

  it('README and docs/: every relative link resolves to a file and heading here, none outside the repository', () => {
    const anchors = (text: string): Set<string> =>
      new Set(
        [...text.matchAll(/^#+ (.*)$/gm)].map((heading) =>
          heading[1]!
            .toLowerCase()
            .replace(/[^a-z0-9 _-]/g, '')
            .replace(/ /g, '-'),
        ),
      );
    for (const page of PAGES) {
      const text = readFileSync(`${ROOT}${page}`, 'utf8');
      assert.doesNotMatch(text, /seed \d{3}|PRODUCT\.md|HOSTS\.md|STYLE\.md/, page);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:/.test(target!)) continue;
        const [file, anchor] = target!.split('#');
        const resolved = file ? normalize(join(dirname(page), file)) : page;
        assert.ok(!resolved.startsWith('..') && !/^\//.test(file!), `${page}: ${target} leaves the repository`);
        assert.ok(existsSync(`${ROOT}${resolved}`), `${page}: ${target} does not exist`);
        if (anchor && resolved.endsWith('.md'))
          assert.ok(anchors(readFileSync(`${ROOT}${resolved}`, 'utf8')).has(anchor), `${page}: no heading #${anchor}`);
      }
    }
    for (const [page, section] of [
      ['docs/benchmarks.md', '## Benchmarks'],
      ['docs/capture.md', '## How the hooks find common-memory'],
      ['docs/data-home.md', '## Privacy'],
    ] as const)
      assert.ok(readFileSync(`${ROOT}${page}`, 'utf8').includes(section), `${page}: ${section}`);
  });

  it('README and docs/: every table cell is a sentence, at most 200 characters; the detail goes in prose below', () => {
    const long: string[] = [];
    for (const page of PAGES) {
      let fenced = false;
      for (const [index, line] of readFileSync(`${ROOT}${page}`, 'utf8').split('\n').entries()) {
        if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
        if (fenced || !line.startsWith('|')) continue;
        // A cell ends at a pipe that is not escaped, as GitHub splits a row (`a\|b` stays in one cell).
        for (const cell of line.replace(/^\||\|\s*$/g, '').split(/(?<!\\)\|/)) {
          const text = cell.trim();
          if (text.length > 200) long.push(`${page}:${index + 1}: ${text.length} characters: ${text.slice(0, 60)}…`);
        }
      }
    }
    assert.deepEqual(long, [], 'move the detail out of these cells into prose after the table');
  });
});
