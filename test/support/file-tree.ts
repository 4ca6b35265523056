// What a directory holds, for "nothing was written" comparisons in tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir` with its text (a symbolic link as `<link>`); {} when `dir` does not exist. */
export function filesBelow(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else out[path] = entry.isSymbolicLink() ? '<link>' : readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return out;
}
