// Word wrapping in terminal columns. Lines break only between words: a word longer than the width
// (a path, a URL, a command to copy) stays whole on a line of its own rather than being cut.
import { textColumns } from './text-columns.js';

const JOINED = '\ue000';

/** `keep`: phrases (commands to copy) that are never broken inside, whatever their length. */
export function wrapText(text: string, width: number, indent = '', keep: readonly string[] = []): string[] {
  const room = Math.max(10, width - textColumns(indent));
  const lines: string[] = [];
  let joined = text.replace(/\r\n?/g, '\n');
  for (const phrase of keep) joined = joined.split(phrase).join(phrase.replace(/ /g, JOINED));
  for (const paragraph of joined.split('\n')) {
    let line = '';
    let used = 0;
    for (const word of paragraph.split(/(?<=\s)(?=\S)/)) {
      const columns = textColumns(word.trimEnd());
      if (used > 0 && used + columns > room) {
        lines.push(indent + line.trimEnd());
        line = '';
        used = 0;
      }
      line += word;
      used += textColumns(word);
    }
    lines.push(indent + line.trimEnd());
  }
  return lines.map((line) => line.replaceAll(JOINED, ' '));
}

/**
 * One line wrapped between words to `width`, its continuation lines indented by `more` beyond the
 * line's own indent (its leading spaces). A word longer than a line stays whole on a line of its own.
 */
export function wrapHanging(line: string, width: number, more: string, keep: readonly string[] = []): string[] {
  const indent = /^ */.exec(line)![0];
  const [first = '', ...rest] = wrapText(line.slice(indent.length), width, indent, keep);
  if (rest.length === 0) return [first];
  // The first line is the text's beginning as written (wrapText keeps a line's words and spaces).
  const left = line.slice(first.length).trimStart();
  return [first, ...wrapText(left, width, indent + more, keep)];
}
