// Time expressions in a search ("last Tuesday", "two weeks ago", "on March 5th", "this week"):
// people remember when they said something as often as what they said, and these words never
// occur in the turn itself, so as search terms they only add noise. Each expression found is
// read against the time of the search (UTC calendar days, weeks from Monday) into a window, and
// taken out of the words. Pure: the caller passes the clock.

export interface TimeWindow {
  sinceMs: number;
  /** Exclusive. */
  untilMs: number;
}

export interface TimeReading {
  /** The windows named by the text; a turn in any of them is preferred. Empty when none. */
  windows: TimeWindow[];
  /** The text without its time expressions. */
  rest: string;
}

const DAY = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const COUNTS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  'a couple of': 2,
  'a few': 3,
};

const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;
/** Monday 00:00 UTC of the week holding `ms`. */
const startOfWeek = (ms: number) => startOfDay(ms) - ((new Date(ms).getUTCDay() + 6) % 7) * DAY;
const day = (ms: number): TimeWindow => ({ sinceMs: startOfDay(ms), untilMs: startOfDay(ms) + DAY });
const week = (ms: number): TimeWindow => ({ sinceMs: startOfWeek(ms), untilMs: startOfWeek(ms) + 7 * DAY });
const month = (year: number, index: number): TimeWindow => ({
  sinceMs: Date.UTC(year, index, 1),
  untilMs: Date.UTC(year, index + 1, 1),
});

/** The most recent `weekday` strictly before today, going back at least `minDaysBack` days. */
function previousWeekday(nowMs: number, weekday: number, minDaysBack: number): number {
  const today = new Date(nowMs).getUTCDay();
  let back = (today - weekday + 7) % 7;
  while (back < minDaysBack) back += 7;
  return nowMs - back * DAY;
}

/** The most recent date with this day of the month (and month, when given), today included. */
function previousDate(nowMs: number, dayOfMonth: number, monthIndex?: number): number | null {
  const now = new Date(nowMs);
  for (let back = 0; back < 24; back += 1) {
    const year = now.getUTCFullYear() - Math.floor((back - now.getUTCMonth() + 11) / 12);
    const m = (((now.getUTCMonth() - back) % 12) + 12) % 12;
    if (monthIndex !== undefined && m !== monthIndex) continue;
    const ms = Date.UTC(year, m, dayOfMonth);
    if (new Date(ms).getUTCDate() !== dayOfMonth) continue;
    if (ms <= nowMs) return ms;
  }
  return null;
}

const COUNT = `(\\d{1,2}|${Object.keys(COUNTS).join('|')})`;
const WEEKDAY = `(${WEEKDAYS.join('|')})`;
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`;
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)?';

const countOf = (word: string) => COUNTS[word] ?? Number(word);
const monthOf = (word: string) => MONTHS.findIndex((name) => name.startsWith(word.slice(0, 3)));

/** Each rule: a pattern (whole words, case-insensitive) and the window it names at `nowMs`, or null. */
const RULES: { pattern: RegExp; window: (match: RegExpExecArray, nowMs: number) => TimeWindow | null }[] = [
  {
    pattern: /(\d{4})-(\d{2})-(\d{2})/,
    window: ([, y, m, d]) => day(Date.UTC(Number(y), Number(m) - 1, Number(d))),
  },
  { pattern: /(?:earlier )?today|this (?:morning|afternoon|evening)/, window: (_, now) => day(now) },
  { pattern: /yesterday/, window: (_, now) => day(now - DAY) },
  { pattern: new RegExp(`${COUNT} days? (?:ago|back)`), window: ([, n], now) => day(now - countOf(n!) * DAY) },
  { pattern: /(?:earlier )?this week/, window: (_, now) => week(now) },
  { pattern: /(?:last|previous|the other) week|(?:a|one) week (?:ago|back)/, window: (_, now) => week(now - 7 * DAY) },
  { pattern: /the week before last/, window: (_, now) => week(now - 14 * DAY) },
  { pattern: new RegExp(`${COUNT} weeks? (?:ago|back)`), window: ([, n], now) => week(now - countOf(n!) * 7 * DAY) },
  {
    pattern: /(?:earlier )?this month/,
    window: (_, now) => month(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth()),
  },
  {
    pattern: /last month/,
    window: (_, now) => month(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 1),
  },
  {
    // "the first Monday of March"
    pattern: new RegExp(`(?:the )?first ${WEEKDAY} (?:of|in) ${MONTH}`),
    window: ([, weekday, name], now) => {
      const start = previousDate(now, 1, monthOf(name!));
      if (start === null) return null;
      const offset = (WEEKDAYS.indexOf(weekday!) - new Date(start).getUTCDay() + 7) % 7;
      return day(start + offset * DAY);
    },
  },
  {
    // "March 5th", "March 5", "5 March", "the 5th of March"
    pattern: new RegExp(`${MONTH} ${ORDINAL}\\b|(?:the )?${ORDINAL} (?:of )?${MONTH}`),
    window: ([, m1, d1, d2, m2], now) => {
      const ms = previousDate(now, Number(d1 ?? d2), monthOf((m1 ?? m2)!));
      return ms === null ? null : day(ms);
    },
  },
  {
    // "Friday the 13th", "on the 5th": the day of the month, its weekday only confirms it
    pattern: new RegExp(`(?:${WEEKDAY} )?the (\\d{1,2})(?:st|nd|rd|th)`),
    window: ([, , d], now) => {
      const ms = previousDate(now, Number(d));
      return ms === null ? null : day(ms);
    },
  },
  {
    // On a Friday, "last Thursday" is eight days back: the day before is "yesterday".
    pattern: new RegExp(`(?:last|previous) ${WEEKDAY}`),
    window: ([, name], now) => day(previousWeekday(now, WEEKDAYS.indexOf(name!), 2)),
  },
  {
    pattern: new RegExp(`(?:on )?${WEEKDAY}`),
    window: ([, name], now) => day(previousWeekday(now, WEEKDAYS.indexOf(name!), 1)),
  },
  {
    pattern: new RegExp(`(?:in|during|early|late|mid) ${MONTH}`),
    window: ([, name], now) => {
      const ms = previousDate(now, 1, monthOf(name!));
      return ms === null ? null : month(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth());
    },
  },
];

/** Reads the time expressions of `text` at `nowMs`; each one found is taken out of the text. Part of a file name or an identifier (`monday.ts`, `last_week`) is not one. */
export function readTimeExpressions(text: string, nowMs: number): TimeReading {
  const windows: TimeWindow[] = [];
  let rest = text;
  for (const { pattern, window } of RULES) {
    const whole = new RegExp(
      `(?<![\\p{L}\\p{N}_./-])(?:${pattern.source})(?![\\p{L}\\p{N}_-]|[./][\\p{L}\\p{N}])`,
      'giu',
    );
    rest = rest.replace(whole, (...args) => {
      const groups = args.slice(0, -2) as string[];
      const match = Object.assign(
        groups.map((group) => group?.toLowerCase()),
        { index: 0, input: text },
      ) as unknown as RegExpExecArray;
      const found = window(match, nowMs);
      if (found === null || found.untilMs <= found.sinceMs) return groups[0]!;
      windows.push(found);
      return ' ';
    });
  }
  return { windows, rest };
}
