/**
 * Lexical checks of the SQL fragments the dictionary holds (info window FROM/WHERE/SELECT/ORDER
 * clauses, query functions, status line and chart statements). They are written by administrators
 * and run as parts of one read-only SELECT: anything that could end that statement, open another
 * or change data is refused before the database sees it.
 */

/** A token of a fragment: a word, a quoted identifier, a string literal or one other character. */
export interface FragmentToken {
  kind: 'word' | 'quoted' | 'string' | 'number' | 'symbol';
  text: string;
}

/** Words that would make a fragment write, lock, change the session or call out. */
const FORBIDDEN_WORDS = new Set([
  'insert', 'update', 'delete', 'merge', 'upsert', 'drop', 'create', 'alter', 'truncate', 'grant', 'revoke',
  'copy', 'call', 'do', 'execute', 'prepare', 'deallocate', 'listen', 'notify', 'unlisten', 'vacuum', 'analyze',
  'lock', 'set', 'reset', 'commit', 'rollback', 'begin', 'savepoint', 'release', 'into', 'returning', 'share',
  'cluster', 'reindex', 'refresh', 'discard', 'load', 'checkpoint', 'import', 'security', 'comment',
  'set_config', 'nextval', 'setval', 'dblink', 'query_to_xml', 'table_to_xml', 'cursor_to_xml', 'txid_current',
]);

/** Prefixes of functions that reach files, large objects, the server or other sessions. */
const FORBIDDEN_PREFIXES = ['pg_', 'lo_', 'dblink'];

export class FragmentError extends Error {}

/** Splits a fragment into tokens; fails on comments, dollar quoting, statement separators and unclosed quotes. */
export function tokenizeFragment(text: string): FragmentToken[] {
  // Anywhere, even in a literal: E'' strings escape quotes with it, which would hide where a literal ends.
  if (text.includes('\\')) throw new FragmentError('a backslash is not allowed');
  const out: FragmentToken[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === ';') throw new FragmentError('a statement separator (;) is not allowed');
    if (ch === '$') throw new FragmentError('dollar quoting and positional parameters ($) are not allowed');
    if ((ch === '-' && text[i + 1] === '-') || (ch === '/' && text[i + 1] === '*')) throw new FragmentError('comments are not allowed');
    if (ch === "'") {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new FragmentError('a string literal is not closed');
        if (text[j] === "'") {
          if (text[j + 1] === "'") j += 2;
          else break;
        } else j++;
      }
      out.push({ kind: 'string', text: text.slice(i, j + 1) });
      i = j + 1;
      continue;
    }
    if (ch === '"') {
      const j = text.indexOf('"', i + 1);
      if (j < 0) throw new FragmentError('a quoted identifier is not closed');
      out.push({ kind: 'quoted', text: text.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_#]*/.exec(text.slice(i));
    if (word) {
      out.push({ kind: 'word', text: word[0] });
      i += word[0].length;
      continue;
    }
    const num = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i));
    if (num) {
      out.push({ kind: 'number', text: num[0] });
      i += num[0].length;
      continue;
    }
    out.push({ kind: 'symbol', text: ch });
    i++;
  }
  return out;
}

/**
 * Checks one fragment (after its @variables@ are replaced); throws FragmentError saying what is
 * wrong. `clause` names where it goes, for the message.
 */
export function checkFragment(text: string, clause: string): FragmentToken[] {
  let tokens: FragmentToken[];
  try {
    tokens = tokenizeFragment(text);
  } catch (e) {
    throw new FragmentError(`${clause}: ${(e as Error).message}`);
  }
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'symbol' && t.text === '(') depth++;
    if (t.kind === 'symbol' && t.text === ')' && --depth < 0) throw new FragmentError(`${clause}: a parenthesis is closed that was not opened`);
    const word = t.kind === 'word' || t.kind === 'quoted' ? t.text.toLowerCase() : null;
    if (word !== null && (FORBIDDEN_WORDS.has(word) || FORBIDDEN_PREFIXES.some((p) => word.startsWith(p)))) {
      throw new FragmentError(`${clause}: ${t.text} is not allowed in a read-only query`);
    }
  }
  if (depth !== 0) throw new FragmentError(`${clause}: a parenthesis is not closed`);
  return tokens;
}

/** A table named in a FROM clause and the alias its columns go by. */
export interface FromTable {
  table: string;
  alias: string;
}

const NOT_ALIAS = new Set(['on', 'using', 'inner', 'left', 'right', 'full', 'outer', 'cross', 'join', 'natural', 'where', 'lateral', 'as']);

/**
 * The tables a FROM clause reads directly (not those of subqueries), with their aliases: each one
 * follows the start, a comma or JOIN at the top level. Access rules are applied to each.
 */
export function fromTables(text: string): FromTable[] {
  const tokens = checkFragment(text, 'FromClause');
  const out: FromTable[] = [];
  let depth = 0;
  let expectTable = true;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'symbol' && t.text === '(') {
      depth++;
      expectTable = false;
      continue;
    }
    if (t.kind === 'symbol' && t.text === ')') {
      depth--;
      continue;
    }
    if (depth > 0) continue;
    if (t.kind === 'symbol' && t.text === ',') {
      expectTable = true;
      continue;
    }
    if (t.kind === 'word' && t.text.toLowerCase() === 'join') {
      expectTable = true;
      continue;
    }
    if (expectTable && (t.kind === 'word' || t.kind === 'quoted') && !NOT_ALIAS.has(t.text.toLowerCase())) {
      // Unquoted names fold to lower case, as the database folds them.
      const name = (x: FragmentToken): string => (x.kind === 'word' ? x.text.toLowerCase() : x.text);
      let alias = name(t);
      let j = i + 1;
      if (tokens[j]?.kind === 'word' && tokens[j]!.text.toLowerCase() === 'as') j++;
      const next = tokens[j];
      if (next && (next.kind === 'word' || next.kind === 'quoted') && !NOT_ALIAS.has(next.text.toLowerCase())) {
        alias = name(next);
        i = j;
      }
      out.push({ table: name(t), alias });
      expectTable = false;
    }
  }
  return out;
}
