// Who makes a candidate that revises an approved entry: the Memory screen's e on an entry, or
// `memory revise`. Both submit it as a proposal under these names, so review can tell a person's
// revision from an agent's memory_propose.

/** The origin client of a revision made on the TUI's Memory screen. */
export const SCREEN_CLIENT = 'common-memory tui';

/** The origin client of a revision made with `memory revise`. */
export const CLI_CLIENT = 'common-memory cli';

/** Whether a proposal's client is one of common-memory's own revision paths, not an agent. */
export const isRevisionClient = (client: string): boolean => client === SCREEN_CLIENT || client === CLI_CLIENT;
