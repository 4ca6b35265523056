// A drain step's turns and messages in the writer's column form (MessageColumns), built one turn
// at a time as the parser closes it. Each body is written as UTF-8 into one growing buffer the
// moment its turn closes, so the parsed strings die young instead of living (and being copied by
// the garbage collector) until the whole step is planned; the buffer is then transferred to the
// writer, not cloned.
import type { TranscriptTurn } from '../hosts/transcript-model.js';
import type { CaptureStepInput } from '../store/core/capture-sessions.js';

/**
 * Where a step's bodies start; growth doubles. A full 4 MiB step of recorded Codex turns holds
 * about 800 KiB of bodies, so it never grows; pages a small step leaves untouched cost nothing.
 */
const INITIAL_BODY_BYTES = 1024 * 1024;

/** A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair: 4 bytes for 2 units). */
const MAX_UTF8_BYTES_PER_UNIT = 3;

/** Bodies longer than this (UTF-16 units) are measured exactly before they are written. */
const LARGE_BODY_UNITS = 64 * 1024;

export class StepMessages {
  private readonly turns: CaptureStepInput['turns'] = [];
  private readonly columns = {
    key: [] as string[],
    role: [] as string[],
    classification: [] as Array<'evidence' | 'context'>,
    kind: [] as string[],
    bodyEnds: [] as number[],
    line: [] as number[],
    timestamp: [] as Array<string | null>,
  };
  /** Not from Buffer's shared pool: its whole ArrayBuffer is transferred. */
  private bodies: Buffer | null = null;
  private used = 0;

  /** Adds a closed turn (an open one is sealed as settled: a subagent that stopped). */
  add(turn: TranscriptTurn): void {
    this.turns.push({
      key: turn.key,
      state: turn.state === 'open' ? 'settled' : turn.state,
      error: turn.error ?? null,
      messages: turn.messages.length,
    });
    const c = this.columns;
    for (const m of turn.messages) {
      c.key.push(m.key);
      c.role.push(m.role);
      c.classification.push(m.classification);
      c.kind.push(m.kind);
      c.line.push(m.line);
      c.timestamp.push(m.timestamp);
      // Counting the exact size costs a pass over the text; worth it only where 3x would over-allocate a lot.
      const bytes =
        m.text.length > LARGE_BODY_UNITS ? Buffer.byteLength(m.text, 'utf8') : m.text.length * MAX_UTF8_BYTES_PER_UNIT;
      const buffer = this.reserve(bytes);
      this.used += buffer.write(m.text, this.used, 'utf8');
      c.bodyEnds.push(this.used);
    }
  }

  /** The step's turns and columns, and the buffer to transfer with them. The builder is spent. */
  finish(): Pick<CaptureStepInput, 'turns' | 'messages'> & { transfer: ArrayBuffer[] } {
    const bodies = this.bodies === null ? new Uint8Array(0) : this.bodies.subarray(0, this.used);
    const transfer = this.bodies === null ? [] : [this.bodies.buffer as ArrayBuffer];
    this.bodies = null;
    return { turns: this.turns, messages: { ...this.columns, bodies }, transfer };
  }

  private reserve(bytes: number): Buffer {
    const need = this.used + bytes;
    if (this.bodies !== null && need <= this.bodies.length) return this.bodies;
    const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * (this.bodies?.length ?? 0), INITIAL_BODY_BYTES));
    this.bodies?.copy(grown, 0, 0, this.used);
    this.bodies = grown;
    return grown;
  }
}
