// The memory area: session search (and, to come, the memory pipeline's methods).
import { z } from 'zod';
import type { SessionSearchRequest, SessionSearchResult } from '../protocol.js';
import { readByBody } from './route.js';

export const memoryApi = {
  /** BM25 over what users said (delivered user turns, driven agents' user rows). */
  sessionSearch: readByBody<SessionSearchRequest, SessionSearchResult>('/v1/search', {
    schema: z
      .object({ query: z.string(), since: z.string().optional(), until: z.string().optional(), client: z.string().optional(), limit: z.number().optional() })
      .strict(),
    shape: '{"query": string, "since"?, "until"?, "client"?, "limit"?: number}',
  }),
};
