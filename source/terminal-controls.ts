// What a terminal acts on instead of showing: C0 controls but the tab and the line feed, a carriage
// return not before a line feed (it returns to the line's start and what follows draws over it), DEL
// and C1 (ESC and CSI clear a screen, recolour or move the cursor). One definition for what is
// refused where text comes in (a proposal) and labelled where it is shown (visible-text.ts).
export const TERMINAL_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
