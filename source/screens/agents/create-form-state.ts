// The "new agent" form: three one-line fields edited through the shared line editor. Pure (but for
// looking at the pi config dir a user typed), so keys that arrive together each edit the newest text.
import { resolve } from 'node:path';
import { piSettingsProblem } from '../../hosts/pi/agent-dir.js';
import type { CreateAgentInput } from '../../api/agents.js';
import { editLine, emptyLine, type LineEdit, type LineState } from '../keyboard/line-edit.js';
import type { ShownError } from '../format.js';

export const FORM_FIELDS = [
  { name: 'name', label: 'name' },
  { name: 'model', label: 'model (provider/id, optional)' },
  { name: 'piConfigDir', label: 'pi config dir (optional)' },
] as const;

export interface CreateForm {
  lines: LineState[];
  focus: number;
}

export const emptyForm: CreateForm = { lines: FORM_FIELDS.map(() => emptyLine), focus: 0 };

export function editForm(form: CreateForm, edit: LineEdit): CreateForm {
  const lines = form.lines.map((line, index) => (index === form.focus ? editLine(line, edit) : line));
  return { ...form, lines };
}

export const moveFocus = (form: CreateForm, delta: number): CreateForm => ({
  ...form,
  focus: (form.focus + delta + FORM_FIELDS.length) % FORM_FIELDS.length,
});

/** The API input the form describes, or the one-line reason it cannot be sent yet. */
export function formInput(form: CreateForm): { input: Omit<CreateAgentInput, 'operationId'> } | { error: ShownError } {
  const [name = '', model = '', piConfigDir = ''] = form.lines.map((line) => line.text.trim());
  if (name === '') return { error: { code: 'invalid_input', message: 'An agent needs a name.' } };
  const problem = piSettingsProblem(model || undefined, piConfigDir ? resolve(piConfigDir) : undefined);
  if (problem) return { error: { code: 'invalid_input', message: problem.replace(/^--model/, 'The model') } };
  return { input: { name, model: model || undefined, piConfigDir: piConfigDir ? resolve(piConfigDir) : undefined } };
}
