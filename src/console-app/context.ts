import type { Dictionary } from './dictionary.js';
import type { TokenSession } from '../browser/token-session.js';

/** What a view needs: the API session, the dictionary, navigation, and the element it draws in. */
export interface ViewContext {
  api: TokenSession;
  dict: Dictionary;
  /** Goes to a console path (below /console), as a link would. */
  go(path: string): void;
  main: HTMLElement;
  params: URLSearchParams;
}

export const CONSOLE_BASE = '/console';

/** A link inside the console that navigates without reloading the page. */
export function href(path: string): string {
  return CONSOLE_BASE + path;
}
