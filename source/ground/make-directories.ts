// Creating a directory and its missing parents with a bounded number of calls. Node's
// mkdirSync(path, { recursive: true }) loops without end where a parent "exists" to mkdir but
// the child cannot be made (below /proc: mkdir of the child answers ENOENT, of the parent EEXIST,
// and it starts again) — a `--home /proc/x` spun at full CPU. Here each missing directory is made
// once, top down; any failure is thrown as it is. node:* only: the hook fast path uses it.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Why a path cannot be a directory, with the path at fault: a file on the way, or mkdir's own error. */
export class DirectoryError extends Error {
  readonly code: string;
  readonly at: string;
  constructor(code: string, at: string, message: string) {
    super(message);
    this.name = 'DirectoryError';
    this.code = code;
    this.at = at;
  }
}

const errnoOf = (error: unknown): string => (error as NodeJS.ErrnoException | null)?.code ?? 'EIO';

/** Makes `path` and its missing parents (each with `mode`); a path that is already a directory is fine. */
export function makeDirectories(path: string, mode?: number): void {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOTDIR') {
        // A file further up: found by going on up.
      } else if (code !== 'ENOENT') {
        throw new DirectoryError(code, at, `${at}: ${(error as Error).message}`);
      }
      const parent = dirname(at);
      if (parent === at) break;
      missing.push(at);
      at = parent;
      continue;
    }
    if (!isDirectory) throw new DirectoryError('ENOTDIR', at, `${at} is a file, not a directory`);
    break;
  }
  for (const directory of missing.reverse()) {
    try {
      mkdirSync(directory, mode === undefined ? {} : { mode });
    } catch (error) {
      const code = errnoOf(error);
      // Made by someone else meanwhile: fine if it is a directory now.
      if (code === 'EEXIST' && statSync(directory).isDirectory()) continue;
      const reason =
        code === 'ENOENT'
          ? 'this file system does not allow it'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : code === 'EROFS'
              ? 'read-only file system'
              : (error as Error).message;
      throw new DirectoryError(code, directory, `${directory} cannot be created (${code}: ${reason})`);
    }
  }
}
