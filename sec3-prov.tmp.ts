import { readFileSync } from 'node:fs';
import { lintText } from './source/memory/secret-lint.ts';
const by = new Map<string, Set<string>>();
const ex = new Map<string, string>();
for (const f of ['train', 'train-2']) for (const line of readFileSync(`test/corpus/secrets/${f}.jsonl`, 'utf8').split('\n')) {
  if (!line) continue;
  const r = JSON.parse(line);
  if (r.kind !== 'provider-token') continue;
  const rules = lintText(r.text).filter((x) => x.severity === 'block').map((x) => x.rule);
  const set = by.get(r.provider) ?? new Set();
  for (const x of rules.length ? rules : ['NONE']) set.add(x);
  by.set(r.provider, set);
  ex.set(r.provider, (r.plain ?? r.secret).slice(0, 60));
}
const generic = new Set(['keyword-secret', 'prose-secret', 'high-entropy-string', 'NONE', 'authorization-header', 'encoded-secret', 'cli-password', 'url-credentials']);
for (const [p, s] of by) if ([...s].every((x) => generic.has(x))) console.log(p.padEnd(24), [...s].join(','), ex.get(p));
