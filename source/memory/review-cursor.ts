// The review queue's cursor as people pass it back (`memory review --after`): checked before any
// request is sent, and again where the page is read.
import { CmError } from '../errors.js';

/** Where a review page starts: after this candidate, in the queue's order (newest first, then id). */
export interface ReviewCursor {
  createdAtMs: number;
  candidateId: string;
}

const REVIEW_CURSOR = /^(\d{1,15})\.([A-Za-z0-9_-]{1,100})$/;

export const reviewCursorText = (cursor: ReviewCursor): string => `${cursor.createdAtMs}.${cursor.candidateId}`;

export function parseReviewCursor(text: string): ReviewCursor {
  const match = REVIEW_CURSOR.exec(text);
  if (!match)
    throw new CmError(
      'invalid_cursor',
      `${JSON.stringify(text.slice(0, 80))} is not a review cursor; give the nextAfter of the previous page (memory review --json prints it), or leave --after out to start from the newest.`,
    );
  return { createdAtMs: Number(match[1]), candidateId: match[2]! };
}
