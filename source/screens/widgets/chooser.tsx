// The chooser's view: ink-select-input draws the options with the highlighted one marked. It never
// listens to the keyboard itself (isFocused is off): the keyboard router owns the keys
// (keyboard/use-chooser-keys.ts) and the screen's reducer owns the highlighted index. Its own
// selection state reads keys through a closure, so keys arriving together would act on stale state;
// here it only shows the index it is given, mounted afresh when that index moves.
import { Text } from 'ink';
import SelectInput, { type IndicatorProps, type ItemProps } from 'ink-select-input';
import { createContext, useContext, useMemo } from 'react';
import { wrapText } from '../../text-wrap.js';
import { truncate } from '../format.js';
import { type Theme, useTheme } from './theme.js';

export interface ChooserOption {
  /** The option's line, after the mark. */
  label: string;
  /** The line's color (words say the same); the highlighted line is bold, in the accent color when it has no tone. */
  tone?: 'text' | 'muted' | 'ok' | 'error';
}

const colorOf = (tone: ChooserOption['tone'], theme: Theme): string | undefined =>
  tone === 'muted' ? theme.muted : tone === 'ok' ? theme.ok : tone === 'error' ? theme.error : undefined;

function Mark({ isSelected = false }: IndicatorProps) {
  const theme = useTheme();
  return (
    <Text bold color={theme.accent}>
      {isSelected ? '> ' : '  '}
    </Text>
  );
}

/** The options being drawn, for the item view: ink-select-input hands it only the label and the value. */
const OptionsContext = createContext<readonly ChooserOption[]>([]);

function ChooserItem(props: ItemProps) {
  const { isSelected = false, label } = props;
  const theme = useTheme();
  const options = useContext(OptionsContext);
  // The value is the option's place: a value that changed would make ink-select-input reset its
  // selection to the first option, so it stays the place and the tone is looked up by it.
  const index = (props as ItemProps & { value?: number }).value ?? -1;
  return (
    <Text
      bold={isSelected}
      color={colorOf(options[index]?.tone, theme) ?? (isSelected ? theme.accent : undefined)}
      wrap="truncate-end"
    >
      {label}
    </Text>
  );
}

/**
 * An option's lines after its mark: one, cut to the line; or, wrapped, as many as its words need
 * (a word wider than the line, a path, is cut only then).
 */
function optionLines(option: ChooserOption, columns: number, wrap: boolean): string[] {
  const width = Math.max(1, columns - 2);
  return (wrap ? wrapText(option.label, width) : [option.label]).map((line) => truncate(line, width));
}

/** The rows a chooser takes on screen: one an option, or with `wrap` each option's wrapped lines. */
export const chooserRows = (options: readonly ChooserOption[], columns: number, wrap = false): number =>
  wrap ? options.reduce((rows, option) => rows + optionLines(option, columns, true).length, 0) : options.length;

export function Chooser({
  options,
  highlighted,
  columns,
  wrap = false,
}: {
  options: readonly ChooserOption[];
  highlighted: number;
  columns: number;
  /** An option longer than the line continues on the next ones (chooserRows counts them), instead of being cut. */
  wrap?: boolean;
}) {
  const items = useMemo(
    () =>
      options.map((option, index) => ({
        key: String(index),
        label: optionLines(option, columns, wrap).join('\n'),
        value: index,
      })),
    [options, columns, wrap],
  );
  const index = Math.min(Math.max(0, highlighted), Math.max(0, options.length - 1));
  return (
    <OptionsContext.Provider value={options}>
      <SelectInput
        key={index}
        items={items}
        initialIndex={index}
        isFocused={false}
        indicatorComponent={Mark}
        itemComponent={ChooserItem}
      />
    </OptionsContext.Provider>
  );
}
