/**
 * The history of a workflow process as the original's `history-records` shows it: one HTML
 * paragraph per activity, `<p>time <b>node</b>: description<i>message</i></p>`. Texts are
 * escaped, so a message a user typed cannot become markup in the client that renders it.
 */

export interface HistoryLine {
  /** The database's timestamp text (UTC, 'YYYY-MM-DD HH:MM:SS[.ffffff]'). */
  created: string;
  node: string;
  /** What happened: the activity's state, and the user it belongs to. */
  description: string;
  message: string | null;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** A tagged part, left out when empty (as the original's paragraphs do); line breaks become <br>. */
function part(tag: string | null, text: string | null): string {
  if (!text) return '';
  const body = escapeHtml(text).replace(/\r?\n/g, '<br>');
  return tag ? `<${tag}>${body}</${tag}>` : body;
}

export function historyLineHtml(line: HistoryLine): string {
  const time = `${line.created.slice(0, 19)} UTC`;
  return `<p>${time} ${part('b', line.node)}: ${part(null, line.description)}${part('i', line.message)}</p>`;
}

export const historyHtml = (lines: readonly HistoryLine[]): string => lines.map(historyLineHtml).join('');
