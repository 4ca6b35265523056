// POSIX single-quote quoting, for the commands we write for a shell to run: installed hooks
// (hosts run them through a shell) and the replay line of a quarantined hook event.

export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
