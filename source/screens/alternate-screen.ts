// The terminal's alternate screen: the TUI draws there while it runs (run-tui.tsx), and leaves it
// while a person's editor has the terminal (memory/entry-editor.ts).
export const ENTER_ALTERNATE_SCREEN = '\u001B[?1049h\u001B[H';
export const LEAVE_ALTERNATE_SCREEN = '\u001B[?1049l';
