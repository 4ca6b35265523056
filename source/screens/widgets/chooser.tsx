// The chooser's view: ink-select-input draws the options with the highlighted one marked. It never
// listens to the keyboard itself (isFocused is off): the keyboard router owns the keys
// (keyboard/use-chooser-keys.ts) and the screen's reducer owns the highlighted index. Its own
// selection state reads keys through a closure, so keys arriving together would act on stale state;
// here it only shows the index it is given, mounted afresh when that index moves.
import { Text } from 'ink';
import SelectInput, { type IndicatorProps, type ItemProps } from 'ink-select-input';
import { createContext, useContext, useMemo } from 'react';
import { textColumns } from '../../text-columns.js';
import { wrapText } from '../../text-wrap.js';
import { splitLine } from '../memory/wrap-lines.js';
import { type Theme, useTheme } from './theme.js';

export interface ChooserOption {
  /** The option's text, after the mark: wrapped under the mark where it is longer than the line. */
  label: string;
  /**
   * What the option says where its label is longer than the line and it is not the highlighted
   * option (a client's state without its file): the highlighted one shows its label in full.
   */
  short?: string;
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
 * An option's lines after its mark, never cut: its label, or where the label is longer than the
 * line and the option is not highlighted its short text; wrapped at words (a word wider than the
 * line, a path, goes on on the next).
 */
function optionLines(option: ChooserOption, columns: number, highlighted: boolean): string[] {
  const width = Math.max(1, columns - 2);
  const text =
    highlighted || option.short === undefined || textColumns(option.label) <= width ? option.label : option.short;
  return wrapText(text, width).flatMap((line) => splitLine(line, width));
}

/** The rows a chooser takes on screen: each option's lines, with `highlighted` the highlighted one. */
export const chooserRows = (options: readonly ChooserOption[], columns: number, highlighted: number): number =>
  options.reduce((rows, option, index) => rows + optionLines(option, columns, index === highlighted).length, 0);

export function Chooser({
  options,
  highlighted,
  columns,
}: {
  options: readonly ChooserOption[];
  highlighted: number;
  /** The line's width: an option longer than it continues on the next lines (chooserRows counts them). */
  columns: number;
}) {
  const index = Math.min(Math.max(0, highlighted), Math.max(0, options.length - 1));
  const items = useMemo(
    () =>
      options.map((option, place) => ({
        key: String(place),
        label: optionLines(option, columns, place === index).join('\n'),
        value: place,
      })),
    [options, columns, index],
  );
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
