// `message <uuid>` and `operation <id>`: durable provenance lookups.
import { connect } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import { formatRow } from './history.js';
import { messageText } from '../../message-text.js';
import { visibleText } from '../../memory/visible-text.js';
import { wrapText } from '../../text-wrap.js';
import type { Output } from '../output.js';

export async function runMessage(home: string, id: string | undefined, out: Output): Promise<number> {
  if (!id) throw new CmError('usage', 'usage: common-memory message <message-uuid>');
  const connection = await connect(home, 'read');
  try {
    const view = await connection.app.message({ messageId: id });
    out.result(view, () =>
      [
        formatRow(view.message),
        // A prompt pasted with colours holds terminal controls: labelled (⟨U+001B⟩), as sessions
        // and search show text, so that they are read rather than act on the terminal.
        ...wrapText(
          visibleText(messageText(view.message.payload) ?? ''),
          process.stdout.columns ?? Number.MAX_SAFE_INTEGER,
          '    ',
        ),
        `  source: ${formatRow(view.source)}`,
        ...view.observations.map((row) => `  observed: ${formatRow(row)}`),
        view.operation
          ? `  operation ${view.operation.operationId}: ${view.operation.kind}, ${view.operation.state}`
          : '  operation: none',
      ].join('\n'),
    );
    return 0;
  } finally {
    await connection.close();
  }
}

export async function runOperation(home: string, id: string | undefined, out: Output): Promise<number> {
  if (!id) throw new CmError('usage', 'usage: common-memory operation <operation-id>');
  const connection = await connect(home, 'read');
  try {
    const op = await connection.app.operation({ operationId: id });
    out.result(
      op,
      () =>
        `operation ${op.operationId}: ${op.kind}, ${stateText(op.state, op.outcome)}${op.detail ? ` — ${op.detail.replace(/\.$/, '')}` : ''}. Intent at journal #${op.journalSequence}, created ${op.createdAt}${missingKeyFix(op.detail, op.agentId)}`,
    );
    return 0;
  } finally {
    await connection.close();
  }
}

/** "accepted (answered)", but "rejected" rather than "rejected (rejected)". */
export const stateText = (state: string, outcome: string | null): string =>
  outcome && outcome !== state ? `${state} (${outcome})` : state;

/**
 * pi refuses a prompt it has no key for with advice for its own TUI (/login), which a driven agent
 * cannot follow: say where the agent takes its key from, and that a new generation copies it in.
 */
function missingKeyFix(detail: string | null | undefined, agentId: string | null): string {
  if (!agentId || !detail?.startsWith('pi refused the prompt: No API key found')) return '';
  const agent = agentId.slice(0, 8);
  return `\nTo give it a key: put auth.json (API keys) or models.json (providers) in the dir the agent copies them from (its --pi-config, else ~/.pi/agent), then start a new generation: common-memory agent stop ${agent}, then common-memory agent start ${agent}. See "Giving pi a provider" in docs/agents.md.`;
}
