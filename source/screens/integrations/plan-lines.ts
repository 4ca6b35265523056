// What the plan and result panels show, as plain lines: a summary, refusals, warnings, the diff
// and, for a Codex install, how Codex's hook trust works. Held once per plan and shown through a
// scrolling window; a huge diff is cut for display with a line that says so and where to see it all.
import { planDiff, planOutdatedReasons } from '../../hosts/integrations.js';
import { reasonLines } from '../../hosts/install-health.js';
import type { HookApplyResult, HookClient, IntegrationPlan } from '../../hosts/integrations.js';
import type { PiExtensionApplyResult, PiExtensionPlan } from '../../hosts/pi/extension-install.js';
import { textColumns } from '../../text-columns.js';
import { wrapHanging } from '../../text-wrap.js';

/** Enough for any hook config we write; a larger diff is someone else's file and cut visibly. */
export const PANEL_LINES_MAX = 2000;

const clean = (line: string): string => line.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '?').replace(/\t/g, '  ');

function bounded(lines: string[], client: string, action: string): string[] {
  if (lines.length <= PANEL_LINES_MAX) return lines;
  const cut = lines.length - PANEL_LINES_MAX;
  return [
    ...lines.slice(0, PANEL_LINES_MAX),
    `… ${cut} more lines not shown here; \`common-memory ${action} ${client} --dry-run\` prints the whole diff`,
  ];
}

export function planSummary(plan: IntegrationPlan): string {
  const count = (change: string) => plan.changes.filter((item) => item.change === change).map((item) => item.event);
  const added = count('add');
  const updated = count('update');
  const removed = count('remove');
  const parts = [];
  if (added.length > 0) parts.push(`add ${added.length} (${added.join(', ')})`);
  if (updated.length > 0) parts.push(`update ${updated.length} (${updated.join(', ')})`);
  if (removed.length > 0) parts.push(`remove ${removed.length} (${removed.join(', ')})`);
  const unchanged = count('unchanged').length;
  if (unchanged > 0) parts.push(`${unchanged} unchanged`);
  if (plan.mcp.change === 'add' || plan.mcp.change === 'update' || plan.mcp.change === 'remove')
    parts.push(`${plan.mcp.change} MCP server`);
  else if (plan.mcp.change === 'unchanged' && plan.action === 'install') parts.push('MCP server registered');
  return parts.length > 0 ? parts.join(' · ') : 'no hooks of ours here';
}

export function planLines(plan: IntegrationPlan): string[] {
  const lines = [`file ${plan.path}`, `MCP config ${plan.mcp.path}`, `change: ${planSummary(plan)}`];
  // A moved clone or a Node that is gone: why these entries are rewritten.
  lines.push(...reasonLines(planOutdatedReasons(plan)));
  for (const refusal of plan.refusals) lines.push(`REFUSED (${refusal.code}) at ${refusal.where}: ${refusal.message}`);
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  if (plan.refusals.length === 0) {
    lines.push(
      planDiff(plan) === ''
        ? plan.action === 'install'
          ? 'Already installed: nothing to write.'
          : 'Nothing of ours to remove: nothing to write.'
        : 'y writes this change (a backup of the file is kept next to it):',
    );
  }
  lines.push('');
  if (planDiff(plan) !== '') lines.push(...planDiff(plan).replace(/\n$/, '').split('\n'));
  if (plan.trust) lines.push('', ...plan.trust.text.split('\n'));
  return bounded(lines.map(clean), plan.client, plan.action);
}

export function resultLines(plan: IntegrationPlan, result: HookApplyResult): string[] {
  const lines = result.written
    ? [
        `wrote ${result.writtenPath ?? result.path}`,
        result.backupPath ? `backup of the previous file: ${result.backupPath}` : 'there was no previous file',
      ]
    : [`nothing written: ${result.path} already had this configuration`];
  lines.push(`change: ${planSummary(plan)}`);
  if (plan.action === 'install') lines.push(`each hook runs: ${plan.command}`);
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  if (plan.trust) lines.push('', ...plan.trust.text.split('\n'));
  return lines.map(clean);
}

/** A plan the screen shows: the hooks (and MCP server) of Codex or Claude Code, or pi's extension entry. */
export type ScreenPlan = { client: HookClient; plan: IntegrationPlan } | { client: 'pi'; plan: PiExtensionPlan };

export type ScreenResult =
  | { client: HookClient; plan: IntegrationPlan; result: HookApplyResult }
  | { client: 'pi'; plan: PiExtensionPlan; result: PiExtensionApplyResult };

/** Whether "y" may apply it: something to write and nothing refused. */
export const screenPlanApplicable = (shown: ScreenPlan): boolean =>
  shown.plan.refusals.length === 0 && (shown.client === 'pi' ? shown.plan.after !== null : shown.plan.diff !== '');

export const screenPlanLines = (shown: ScreenPlan): string[] =>
  shown.client === 'pi' ? piPlanLines(shown.plan) : planLines(shown.plan);

export const screenResultLines = (shown: ScreenResult): string[] =>
  shown.client === 'pi' ? piResultLines(shown.plan, shown.result) : resultLines(shown.plan, shown.result);

const PI_CHANGE_WORDS = {
  add: 'add the extension to pi\'s "extensions" list',
  update: 'rewrite the extension entry an earlier install wrote',
  remove: 'remove the extension entry',
  unchanged: 'nothing to change',
} as const;

export function piPlanLines(plan: PiExtensionPlan): string[] {
  const lines = [`file ${plan.path}`, `extension ${plan.extension}`, `change: ${PI_CHANGE_WORDS[plan.change]}`];
  lines.push(...reasonLines(plan.reasons));
  for (const refusal of plan.refusals) lines.push(`REFUSED: ${refusal}`);
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  if (plan.refusals.length === 0)
    lines.push(
      plan.after === null
        ? plan.action === 'install'
          ? 'Already installed: nothing to write.'
          : 'Nothing of ours to remove: nothing to write.'
        : 'y writes this change (a backup of the file is kept next to it); pi loads it at its next start or /reload:',
    );
  lines.push('');
  if (plan.diff !== '') lines.push(...plan.diff.replace(/\n$/, '').split('\n'));
  return bounded(lines.map(clean), 'pi', plan.action);
}

export function piResultLines(plan: PiExtensionPlan, result: PiExtensionApplyResult): string[] {
  const lines = result.written
    ? [
        `wrote ${result.writtenPath ?? plan.path}`,
        result.backupPath ? `backup of the previous file: ${result.backupPath}` : 'there was no previous file',
      ]
    : [`nothing written: ${plan.path} already had this configuration`];
  lines.push(`change: ${PI_CHANGE_WORDS[plan.change]}`);
  if (plan.action === 'install') lines.push('pi loads the extension at its next start (or /reload in a running pi).');
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  return lines.map(clean);
}

export interface DisplayLine {
  text: string;
  /** The line it was cut from, so a wrapped diff line keeps its +/- meaning. */
  source: string;
}

/**
 * Wraps lines to the terminal width at word boundaries: the trust how-to and long paths must be
 * read whole, not cut. A command in `keep` (or between backticks) starts a line of its own and is
 * never broken at a space; only a word wider than the terminal itself continues on the next row.
 */
export function wrapLines(lines: readonly string[], columns: number, keep: readonly string[] = []): DisplayLine[] {
  const width = Math.max(10, columns);
  const wrapped: DisplayLine[] = [];
  for (const line of lines) {
    const quoted = [...line.matchAll(/`[^`]+`/g)].map((match) => match[0]);
    // An indented line (a report's item) continues under its own text, as the CLI prints it.
    const more = line.startsWith(' ') ? '  ' : '';
    for (const piece of wrapHanging(line, width, more, [...keep, ...quoted]))
      for (const text of rowsOf(piece, width)) wrapped.push({ text, source: line });
  }
  return wrapped;
}

/** A line wider than the terminal, in rows of at most `width` columns. */
function rowsOf(line: string, width: number): string[] {
  if (textColumns(line) <= width) return [line];
  const rows: string[] = [];
  let row = '';
  for (const char of line) {
    if (textColumns(row + char) > width) {
      rows.push(row);
      row = '';
    }
    row += char;
  }
  return [...rows, row];
}
