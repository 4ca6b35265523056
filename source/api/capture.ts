// The capture area: sessions captured from Codex, Claude Code and pi, the inbox's drain, recovery items.
import { z } from 'zod';
import type {
  CaptureStatus,
  CaptureStatusRequest,
  DrainReport,
  FlushReport,
  FlushRequest,
  SessionList,
  SessionListRequest,
  SessionReadRequest,
  SessionView,
} from '../protocol.js';
import { flag, optionalNumber, optionalText, read, write } from './route.js';

export const captureApi = {
  captureStatus: read<CaptureStatusRequest, CaptureStatus>('/v1/capture/status', {
    afterRecovery: optionalText('after-recovery'),
    afterSession: optionalText('after-session'),
  }),
  /** Drains the inbox now; with `recover`, retries exactly that recovery item. */
  sessionDrain: write<{ recover?: string | undefined }, DrainReport>('/v1/capture/drain', {
    body: { schema: z.object({ recover: z.string().max(64).optional() }).strict(), shape: '{"recover"?: "rec-<n>"}' },
  }),
  /** Drains the inbox; with `extract`, then drafts candidates from every sealed turn (what a host does by itself). */
  flush: write<FlushRequest, FlushReport>('/v1/capture/flush', {
    body: { schema: z.object({ extract: z.boolean().optional() }).strict(), shape: '{"extract"?: true|false}' },
  }),
  /** Captured sessions, newest first, with each one's first prompt line. */
  listSessions: read<SessionListRequest, SessionList>('/v1/sessions', {
    client: optionalText('client'),
    limit: optionalNumber('limit'),
    after: optionalText('after'),
  }),
  /** One session's turns: what the user said in full (secrets masked unless `reveal`); context folded unless asked for. */
  readSession: read<SessionReadRequest, SessionView>('/v1/sessions/:sessionKey', {
    context: flag('context'),
    reveal: flag('reveal'),
  }),
};
