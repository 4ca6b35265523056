// A line's part of a token its source turn holds wrapped over lines is a finding of the draft: the
// draft alone matches no rule. Parts under 8 characters, secrets not wrapped, and parts a finding of
// the draft already covers give none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carriedSecretFindings } from '../../source/memory/carried-secret.js';
import { lintText, type SecretFinding } from '../../source/memory/secret-lint.js';

const token = 'ghp_Qw3rTy7UiOp9AsDfGhJkL2zXcVbNm8PoIuYt';
const source = (text: string) => ({ text, findings: lintText(text) });

describe('carriedSecretFindings', () => {
  it('finds each line part of a wrapped token in the draft, masked, at its place', () => {
    const turn = source(`Deploy with ${token.slice(0, 20)}\n${token.slice(20)} in CI.`);
    assert.equal(turn.findings[0]?.transform, 'wrapped');
    const draft = `Deploy with ${token.slice(0, 20)}.`;
    const found = carriedSecretFindings(draft, [turn], lintText(draft));
    assert.deepEqual(
      found.map((f) => [f.rule, f.severity, f.line, f.column, f.offset, f.length, f.excerpt, f.transform]),
      [['github-token', 'block', 1, 13, 12, 20, 'ghp_…[20 chars]', 'wrapped']],
    );
  });

  it('gives nothing for a short part, a token on one line, or a part the draft is found to hold already', () => {
    const short = source(`Deploy with ${token.slice(0, 34)}\n${token.slice(34)} in CI.`);
    assert.deepEqual(carriedSecretFindings(`Use ${token.slice(34)} here.`, [short], []), []);
    const oneLine = source(`Deploy with ${token} in CI.`);
    assert.deepEqual(carriedSecretFindings(`Use ${token.slice(0, 20)} here.`, [oneLine], []), []);
    const wrapped = source(`Deploy with ${token.slice(0, 20)}\n${token.slice(20)} in CI.`);
    const draft = `Use ${token} here.`;
    const own: SecretFinding[] = lintText(draft);
    assert.equal(own.length, 1);
    assert.deepEqual(carriedSecretFindings(draft, [wrapped], own), []);
  });
});
