// Named commands and the keys that trigger them. Screens match commands, never raw keys, and the
// help line is written from this table, so what it says is what the keys do.
import type { Key } from 'ink';

type KeyFlag =
  | 'upArrow'
  | 'downArrow'
  | 'leftArrow'
  | 'rightArrow'
  | 'pageUp'
  | 'pageDown'
  | 'home'
  | 'end'
  | 'return'
  | 'escape'
  | 'tab'
  | 'backspace'
  | 'delete';

export interface KeySpec {
  /** A printable key (exact, so "N" is not "n"). */
  input?: string;
  /** A special key, by the flag Ink sets for it. */
  key?: KeyFlag;
  ctrl?: boolean;
  /** Shift held (Shift+Tab); without it, a key matches only unshifted. */
  shift?: boolean;
  /** How the help line names it. */
  label: string;
}

export const keyBindings = {
  interrupt: [{ input: 'c', ctrl: true, label: 'Ctrl+C' }],
  quit: [{ input: 'q', label: 'q' }],
  showDashboard: [{ input: '1', label: '1' }],
  showHistory: [{ input: '2', label: '2' }],
  showAgents: [{ input: '3', label: '3' }],
  showStatus: [{ input: '4', label: '4' }],
  showIntegrations: [{ input: '5', label: '5' }],
  showSessions: [{ input: '6', label: '6' }],
  showMemory: [{ input: '7', label: '7' }],
  nextScreen: [{ key: 'tab', label: 'Tab' }],
  previousScreen: [{ key: 'tab', shift: true, label: 'Shift+Tab' }],
  toggleStream: [{ input: 't', label: 't' }],
  // "n" is the note key, so paging uses PgDn/PgUp, the pager keys space/b, and the arrows.
  nextPage: [
    { key: 'pageDown', label: 'PgDn' },
    { input: ' ', label: 'space' },
    { key: 'rightArrow', label: '→' },
  ],
  previousPage: [
    { key: 'pageUp', label: 'PgUp' },
    { input: 'b', label: 'b' },
    { key: 'leftArrow', label: '←' },
  ],
  firstPage: [
    { input: 'g', label: 'g' },
    { key: 'home', label: 'Home' },
  ],
  toggleFollow: [{ input: 'f', label: 'f' }],
  openNote: [{ input: 'n', label: 'n' }],
  refresh: [{ input: 'r', label: 'r' }],
  // Lists (agents, recovery items, clients) and scrollable panels.
  selectUp: [
    { key: 'upArrow', label: '↑' },
    { input: 'k', label: 'k' },
  ],
  selectDown: [
    { key: 'downArrow', label: '↓' },
    { input: 'j', label: 'j' },
  ],
  // Agents screen.
  createAgent: [{ input: 'c', label: 'c' }],
  startAgent: [{ input: 's', label: 's' }],
  stopAgent: [{ input: 'x', label: 'x' }],
  openPrompt: [{ input: 'p', label: 'p' }],
  abortPrompt: [{ input: 'a', label: 'a' }],
  // Capital: giving up an interrupted prompt is rarer and final, so it is not next to "a" by accident.
  abandonPrompt: [{ input: 'A', label: 'A' }],
  // The feed's rows: ↑↓ choose the agent, so the row to open in full moves with [ and ].
  olderRow: [{ input: '[', label: '[' }],
  newerRow: [{ input: ']', label: ']' }],
  // Processing status screen.
  retryItem: [{ key: 'return', label: 'Enter' }],
  drainNow: [{ input: 'd', label: 'd' }],
  flushNow: [{ input: 'f', label: 'f' }],
  // Sessions screen: open the selected one, back to the list, context shown or folded.
  openItem: [{ key: 'return', label: 'Enter' }],
  back: [{ key: 'escape', label: 'Esc' }],
  toggleContext: [{ input: 'c', label: 'c' }],
  // Text in full (widgets/reader.tsx): an error, a row or message, the raw JSON behind it.
  showError: [{ input: 'e', label: 'e' }],
  showOutcome: [{ input: 'o', label: 'o' }],
  toggleRaw: [{ input: 'v', label: 'v' }],
  // Integrations screen.
  planInstall: [{ input: 'i', label: 'i' }],
  planUninstall: [{ input: 'u', label: 'u' }],
  // What an import of the client's stored conversations would bring in; "y" then imports it.
  planImport: [{ input: 'm', label: 'm' }],
  // Memory screen: its views (Review, Promote, Entries, Extraction) and the review → promote flow.
  nextView: [{ input: ']', label: ']' }],
  previousView: [{ input: '[', label: '[' }],
  markItem: [{ input: 'm', label: 'm' }],
  showEvidence: [{ input: 'e', label: 'e' }],
  confirmStatement: [{ input: 'c', label: 'c' }],
  discardCandidate: [{ input: 'd', label: 'd' }],
  promoteChosen: [{ input: 'p', label: 'p' }],
  // Review queue: open the consolidation patch waiting there (its operations, each taken or left out).
  openPatch: [{ input: 'c', label: 'c' }],
  toggleScope: [{ input: 's', label: 's' }],
  // Approving binds the plan's digest: it is its own key, never Enter, so no key pressed to scroll or open approves.
  approvePlan: [{ input: 'a', label: 'a' }],
  openSearch: [{ input: '/', label: '/' }],
  // Entries view, on an approved entry: verify its scope now, edit it through a new candidate, retire it (a plan).
  reverifyEntry: [{ input: 'v', label: 'v' }],
  reviseEntry: [{ input: 'e', label: 'e' }],
  retireEntry: [{ input: 'x', label: 'x' }],
  // Entries view: consolidate this directory's scope with the built-in runner (its patch waits on Review).
  consolidateScope: [{ input: 'c', label: 'c' }],
  // Extraction panel: run with the chosen runner, and open the runner chooser.
  runExtraction: [{ input: 'x', label: 'x' }],
  chooseRunner: [{ input: 'r', label: 'r' }],
  // A confirmation step: only "y" goes ahead; anything that closes the question declines.
  confirm: [{ input: 'y', label: 'y' }],
  decline: [
    { input: 'n', label: 'n' },
    { key: 'escape', label: 'Esc' },
  ],
  // Forms: move between fields while typing (Tab is the field key inside a form, not nextScreen).
  nextField: [
    { key: 'tab', label: 'Tab' },
    { key: 'downArrow', label: '↓' },
  ],
  previousField: [{ key: 'upArrow', label: '↑' }],
  // Line editing, active only while a text input has the keyboard.
  submit: [{ key: 'return', label: 'Enter' }],
  cancel: [{ key: 'escape', label: 'Esc' }],
  deleteBackward: [
    { key: 'backspace', label: 'Backspace' },
    { key: 'delete', label: 'Del' },
  ],
  cursorLeft: [{ key: 'leftArrow', label: '←' }],
  cursorRight: [{ key: 'rightArrow', label: '→' }],
  cursorStart: [
    { key: 'home', label: 'Home' },
    { input: 'a', ctrl: true, label: 'Ctrl+A' },
  ],
  cursorEnd: [
    { key: 'end', label: 'End' },
    { input: 'e', ctrl: true, label: 'Ctrl+E' },
  ],
  clearLine: [{ input: 'u', ctrl: true, label: 'Ctrl+U' }],
} satisfies Record<string, KeySpec[]>;

export type Command = keyof typeof keyBindings;

/** A key with no flag set: a printable key on its own (each letter of a paste is matched as one). */
export const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

function matchesSpec(spec: KeySpec, input: string, key: Key): boolean {
  if (Boolean(spec.ctrl) !== key.ctrl) return false;
  if (spec.key === 'tab' && Boolean(spec.shift) !== key.shift) return false;
  if (spec.key) return key[spec.key];
  // Ink flags Esc-prefixed sequences as meta; "q" must not match Alt+q.
  return spec.input === input && !key.meta;
}

export function matches(command: Command, input: string, key: Key): boolean {
  const specs: KeySpec[] = keyBindings[command];
  return specs.some((spec) => matchesSpec(spec, input, key));
}

/** The first of `commands` that this key triggers. */
export function commandFor<C extends Command>(commands: readonly C[], input: string, key: Key): C | undefined {
  return commands.find((command) => matches(command, input, key));
}

/** "PgDn/space/→" — how the help line spells a command's keys. */
export function keyLabel(command: Command): string {
  const specs: KeySpec[] = keyBindings[command];
  return specs.map((spec) => spec.label).join('/');
}

const ARROWS = ['↑', '↓', '←', '→'];

/**
 * A help-line item written from this table: the keys of `commands` (each one's first key, or with
 * `which` "all" every key) and what they do. Arrows run together: "↑↓", "Tab/↑↓".
 */
export function helpItem(
  label: string,
  commands: readonly Command[],
  which: 'first' | 'all' = 'first',
): { keys: string; label: string } {
  const labels = commands.flatMap((command) => {
    const specs: KeySpec[] = keyBindings[command];
    return (which === 'all' ? specs : specs.slice(0, 1)).map((spec) => spec.label);
  });
  const unique = [...new Set(labels)];
  const arrows = ARROWS.filter((arrow) => unique.includes(arrow)).join('');
  const first = unique.findIndex((text) => ARROWS.includes(text));
  const keys = unique.filter((text) => !ARROWS.includes(text));
  if (arrows) keys.splice(first, 0, arrows);
  return { keys: keys.join('/'), label };
}
