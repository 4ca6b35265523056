// JSONL as the clients print it: one object per LF-terminated line; other lines are noise.
export function parseJsonLines(text: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        out.push(value as Record<string, unknown>);
    } catch {
      // A partial line (e.g. output cut at the deadline) is skipped, not fatal.
    }
  }
  return out;
}
