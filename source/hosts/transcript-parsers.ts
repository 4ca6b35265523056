// The strict transcript parser of each captured client, made from a saved state (or fresh): one
// factory for the drain's live tails and for imports of the files the clients wrote, so both read
// a transcript by exactly the same rules. pi is the one client whose live record is not its own
// file: live capture reads the events of common-memory's extension (`pi`), an import reads pi's
// session files (`pi-session`); both give a turn the same identity and a message the same kind.
import {
  ClaudeTranscriptParser,
  claudeTranscriptMode,
  initialClaudeTranscriptState,
  type ClaudeTranscriptState,
} from './claude/transcript-parser.js';
import { CodexRolloutParser, initialCodexRolloutState, type CodexRolloutState } from './codex/rollout-parser.js';
import { initialPiEventsState, PiEventParser, type PiEventsState } from './pi/event-parser.js';
import { initialPiSessionState, PiSessionParser, type PiSessionState } from './pi/session-parser.js';
import type { TranscriptFeeder } from './transcript-file.js';
import type { CursorState } from './transcript-model.js';

export type AnyTranscriptParser = TranscriptFeeder<CursorState> & { readonly state: CursorState };

/**
 * `state`: a state the same parser saved (parsed JSON), or null for a fresh one. A state of
 * another parser throws TranscriptParseError('transcript_invalid_state').
 */
export function transcriptParser(
  client: 'claude' | 'codex' | 'pi' | 'pi-session',
  transcriptPath: string,
  state: unknown,
): AnyTranscriptParser {
  if (client === 'pi-session')
    return new PiSessionParser(
      (state as PiSessionState | null) ?? initialPiSessionState(),
    ) as unknown as AnyTranscriptParser;
  if (client === 'pi')
    return new PiEventParser(
      (state as PiEventsState | null) ?? initialPiEventsState(),
    ) as unknown as AnyTranscriptParser;
  if (client === 'codex')
    return new CodexRolloutParser(
      (state as CodexRolloutState | null) ?? initialCodexRolloutState(),
    ) as unknown as AnyTranscriptParser;
  return new ClaudeTranscriptParser(
    (state as ClaudeTranscriptState | null) ?? initialClaudeTranscriptState(claudeTranscriptMode(transcriptPath)),
  ) as unknown as AnyTranscriptParser;
}
