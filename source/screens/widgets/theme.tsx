// Colors are decoration only: every state is also spelled in words, so NO_COLOR (or a plain test
// frame) loses nothing. https://no-color.org: any non-empty NO_COLOR disables color.
import { createContext, useContext } from 'react';

export interface Theme {
  accent: string | undefined;
  error: string | undefined;
  muted: string | undefined;
  ok: string | undefined;
}

const colored: Theme = { accent: 'cyan', error: 'red', muted: 'gray', ok: 'green' };
const plain: Theme = { accent: undefined, error: undefined, muted: undefined, ok: undefined };

export function themeFor(env: NodeJS.ProcessEnv): Theme {
  return env['NO_COLOR'] ? plain : colored;
}

export const ThemeContext = createContext<Theme>(plain);
export const useTheme = (): Theme => useContext(ThemeContext);
