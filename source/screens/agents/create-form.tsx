// The "new agent" form: one line per field, the focused one with a cursor.
import { Box, Text } from 'ink';
import { LineInputView } from '../widgets/line-input.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { FORM_FIELDS, type CreateForm } from './create-form-state.js';

export function CreateFormView({
  form,
  columns,
  submitting,
}: {
  form: CreateForm;
  columns: number;
  submitting: boolean;
}) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Box>
        <Text bold color={theme.accent}>
          New agent{' '}
        </Text>
        {submitting ? <Spinner label="creating…" /> : null}
      </Box>
      {FORM_FIELDS.map((field, index) =>
        index === form.focus ? (
          <LineInputView
            key={field.name}
            prompt={`> ${field.label}: `}
            line={form.lines[index]!}
            width={columns}
            disabled={submitting}
          />
        ) : (
          <Text key={field.name} wrap="truncate-end">
            {`  ${field.label}: ${form.lines[index]?.text ?? ''}`}
          </Text>
        ),
      )}
    </Box>
  );
}
