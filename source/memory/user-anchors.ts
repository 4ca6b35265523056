// The anchors of a user-scope entry. A user-scope entry applies in every repository, so a claim
// about "the repository" (`src/config.ts`, `npm run lint`, a commit, a branch) names no one place
// and cannot be checked: it is not an anchor here. What can be checked is a claim about the home
// directory the entry's owner works from — an absolute path under it (`/home/me/.config/git/ignore`)
// or the same written `~/.config/git/ignore` — and a symbol tied to such a file. Pure: the home is
// given; effects/anchor-verify.ts verifies these with the home as its root, exactly as a worktree's.
import { type Anchor, extractAnchors } from './anchors.js';

/** `~/x` read as `<home>/x` where it starts a token (prose, backticks, parentheses, quotes). */
const TILDE = /(^|[\s`("'[])~\//g;

/**
 * The anchors of a user-scope entry's text: only paths written absolute under `home` (or from `~/`),
 * relative to `home`, and symbols tied to them. An empty or root home gives none.
 */
export function extractUserAnchors(source: { title: string; body: string }, home: string): Anchor[] {
  const root = home.replace(/\/+$/, '');
  if (root === '' || !root.startsWith('/')) return [];
  const spell = (text: string) => text.replace(TILDE, (_m, before: string) => `${before}${root}/`);
  const title = spell(source.title);
  const body = spell(source.body);
  const text = `${title}\n\n${body}`;
  const absolute = (path: string) => text.includes(`${root}/${path}`);
  const anchors = extractAnchors({ title, body }, { worktreeRoot: root });
  const kept = new Set(
    anchors.flatMap((anchor) => (anchor.kind === 'path' && absolute(anchor.path) ? [anchor.path] : [])),
  );
  return anchors.filter(
    (anchor) =>
      (anchor.kind === 'path' && kept.has(anchor.path)) || (anchor.kind === 'symbol' && kept.has(anchor.path)),
  );
}
