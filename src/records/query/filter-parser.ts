/**
 * `$filter` parser: a tokenizer and a recursive-descent parser producing a FilterNode.
 *
 * Grammar (keywords and operators case-insensitive):
 *
 *   or-expr     := and-expr (OR and-expr)*
 *   and-expr    := unary (AND unary)*
 *   unary       := NOT unary | primary
 *   primary     := '(' or-expr ')' | method-call | comparison
 *   method-call := (contains|startswith|endswith) '(' operand ',' operand ')'
 *   comparison  := operand (eq|neq|gt|ge|lt|le) operand
 *                | operand IN '(' operand (',' operand)* ')'
 *   operand     := identifier | 'string' | number | true | false | null
 *                | (tolower|toupper) '(' operand ')'
 *
 * `and` binds tighter than `or`; both are left-associative. Whitespace is any run of
 * spaces, tabs or newlines (the text is already URL-decoded, so '+' is not a space).
 * There is no `ne`: it is rejected as "Unsupported operator: ne", as in the original.
 * Numbers are an optional '-', digits and an optional '.digits' fraction. Strings use
 * single quotes, with '' standing for one quote. Dates are written as strings; the
 * planner converts values by column type.
 *
 * Every failure is a 400 ApiError titled "Invalid $filter" (or "Invalid <what>") whose
 * detail names the culprit and its 0-based character position in the text.
 */
import { badRequest, type ApiError } from '../../errors.js';
import { MAX_NESTING_DEPTH, MAX_QUERY_LENGTH, quote } from './common.js';
import {
  COMPARE_OPS,
  FUNCTION_NAMES,
  METHOD_NAMES,
  RESERVED_WORDS,
  type CompareOp,
  type FilterNode,
  type MethodName,
  type Operand,
} from './filter-ast.js';

type TokenKind = 'ident' | 'string' | 'number' | 'lparen' | 'rparen' | 'comma' | 'eof';

interface Token {
  kind: TokenKind;
  /** Source text of the token (for strings: including the quotes). */
  text: string;
  /** For strings: the unescaped value. */
  value: string;
  /** 0-based offset of the token's first character. */
  pos: number;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isIdentStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdentPart = (c: string): boolean => isIdentStart(c) || isDigit(c);

function tokenize(text: string, fail: (detail: string) => ApiError): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c === '(' ? 'lparen' : c === ')' ? 'rparen' : 'comma', text: c, value: c, pos: start });
      i++;
    } else if (c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= n) throw fail(`Unterminated string starting at position ${start}`);
        const d = text[i]!;
        if (d === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += d;
        i++;
      }
      tokens.push({ kind: 'string', text: text.slice(start, i), value, pos: start });
    } else if (isDigit(c) || (c === '-' && i + 1 < n && isDigit(text[i + 1]!))) {
      i++;
      while (i < n && isDigit(text[i]!)) i++;
      if (text[i] === '.') {
        if (i + 1 < n && isDigit(text[i + 1]!)) {
          i++;
          while (i < n && isDigit(text[i]!)) i++;
        } else {
          throw fail(`Invalid number ${quote(text.slice(start, i + 1))} at position ${start}`);
        }
      }
      if (i < n && (isIdentPart(text[i]!) || text[i] === '.')) {
        let j = i;
        while (j < n && (isIdentPart(text[j]!) || text[j] === '.')) j++;
        throw fail(`Invalid number ${quote(text.slice(start, j))} at position ${start}`);
      }
      const raw = text.slice(start, i);
      tokens.push({ kind: 'number', text: raw, value: raw, pos: start });
    } else if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentPart(text[i]!)) i++;
      const word = text.slice(start, i);
      tokens.push({ kind: 'ident', text: word, value: word, pos: start });
    } else {
      // Take the whole code point so that the message shows a real character.
      const cp = text.codePointAt(i)!;
      throw fail(`Unexpected character ${quote(String.fromCodePoint(cp))} at position ${start}`);
    }
  }
  tokens.push({ kind: 'eof', text: '', value: '', pos: n });
  return tokens;
}

const lower = (s: string): string => s.toLowerCase();

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly fail: (detail: string) => ApiError,
  ) {}

  parse(): FilterNode {
    if (this.peek().kind === 'eof') throw this.fail('The expression is empty');
    const node = this.parseOr();
    const t = this.peek();
    if (t.kind !== 'eof') {
      if (t.kind === 'rparen') throw this.fail(`Unbalanced ')' at position ${t.pos}`);
      throw this.unexpected(t);
    }
    return node;
  }

  private peek(offset = 0): Token {
    const i = Math.min(this.index + offset, this.tokens.length - 1);
    return this.tokens[i]!;
  }

  private next(): Token {
    const t = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return t;
  }

  private isKeyword(t: Token, word: string): boolean {
    return t.kind === 'ident' && lower(t.text) === word;
  }

  private unexpected(t: Token): ApiError {
    if (t.kind === 'eof') return this.fail(`Unexpected end of input at position ${t.pos}`);
    return this.fail(`Unexpected token ${quote(t.text)} at position ${t.pos}`);
  }

  private expect(kind: TokenKind, what: string): Token {
    const t = this.peek();
    if (t.kind !== kind) {
      const found = t.kind === 'eof' ? 'end of input' : quote(t.text);
      throw this.fail(`Expected ${what} at position ${t.pos}, found ${found}`);
    }
    return this.next();
  }

  private enter(t: Token): void {
    if (++this.depth > MAX_NESTING_DEPTH) {
      throw this.fail(`Expression nested too deeply (more than ${MAX_NESTING_DEPTH} levels) at position ${t.pos}`);
    }
  }

  private leave(): void {
    this.depth--;
  }

  private parseOr(): FilterNode {
    let left = this.parseAnd();
    while (this.isKeyword(this.peek(), 'or')) {
      this.next();
      const right = this.parseAnd();
      left = { kind: 'or', left, right };
    }
    return left;
  }

  private parseAnd(): FilterNode {
    let left = this.parseUnary();
    while (this.isKeyword(this.peek(), 'and')) {
      this.next();
      const right = this.parseUnary();
      left = { kind: 'and', left, right };
    }
    return left;
  }

  private parseUnary(): FilterNode {
    const t = this.peek();
    if (this.isKeyword(t, 'not')) {
      this.enter(t);
      this.next();
      const expr = this.parseUnary();
      this.leave();
      return { kind: 'not', expr };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): FilterNode {
    const t = this.peek();
    if (t.kind === 'lparen') {
      this.enter(t);
      this.next();
      const node = this.parseOr();
      const close = this.peek();
      if (close.kind !== 'rparen') {
        const found = close.kind === 'eof' ? 'end of input' : quote(close.text);
        throw this.fail(`Missing ')' for the '(' at position ${t.pos}: found ${found} at position ${close.pos}`);
      }
      this.next();
      this.leave();
      return node;
    }
    if (t.kind === 'ident' && this.peek(1).kind === 'lparen' && (METHOD_NAMES as readonly string[]).includes(lower(t.text))) {
      return this.parseMethod();
    }
    return this.parseComparison();
  }

  private parseMethod(): FilterNode {
    const nameTok = this.next();
    const name = lower(nameTok.text) as MethodName;
    this.enter(nameTok);
    this.expect('lparen', `'(' after ${name}`);
    const target = this.parseOperand();
    this.expect('comma', `',' between the arguments of ${name}`);
    const value = this.parseOperand();
    this.expect('rparen', `')' to close ${name}(`);
    this.leave();
    return { kind: 'method', name, target, value };
  }

  private parseComparison(): FilterNode {
    const left = this.parseOperand();
    const opTok = this.next();
    if (opTok.kind !== 'ident') {
      if (opTok.kind === 'eof') throw this.fail(`Expected an operator at position ${opTok.pos}, found end of input`);
      throw this.fail(`Expected an operator at position ${opTok.pos}, found ${quote(opTok.text)}`);
    }
    const op = lower(opTok.text);
    if (op === 'in') {
      const open = this.expect('lparen', "'(' after in");
      this.enter(open);
      if (this.peek().kind === 'rparen') throw this.fail(`Empty in-list at position ${open.pos}`);
      const values: Operand[] = [this.parseOperand()];
      while (this.peek().kind === 'comma') {
        this.next();
        values.push(this.parseOperand());
      }
      this.expect('rparen', "',' or ')' in the in-list");
      this.leave();
      return { kind: 'in', left, values };
    }
    if ((COMPARE_OPS as readonly string[]).includes(op)) {
      const right = this.parseOperand();
      return { kind: 'compare', op: op as CompareOp, left, right };
    }
    throw this.fail(`Unsupported operator: ${opTok.text.length > 40 ? quote(opTok.text) : opTok.text} at position ${opTok.pos}`);
  }

  private parseOperand(): Operand {
    const t = this.next();
    switch (t.kind) {
      case 'string':
        return { kind: 'string', value: t.value };
      case 'number':
        return { kind: 'number', value: Number(t.text), raw: t.text };
      case 'ident': {
        const word = lower(t.text);
        if (this.peek().kind === 'lparen') {
          if ((FUNCTION_NAMES as readonly string[]).includes(word)) {
            this.enter(t);
            this.next();
            const arg = this.parseOperand();
            this.expect('rparen', `')' to close ${word}(`);
            this.leave();
            return { kind: 'call', name: word as 'tolower' | 'toupper', arg };
          }
          if ((METHOD_NAMES as readonly string[]).includes(word)) {
            throw this.fail(`${t.text} cannot be used as a value (at position ${t.pos})`);
          }
          throw this.fail(`Unknown function: ${t.text.length > 40 ? quote(t.text) : t.text} at position ${t.pos}`);
        }
        if (word === 'true' || word === 'false') return { kind: 'boolean', value: word === 'true' };
        if (word === 'null') return { kind: 'null' };
        if (RESERVED_WORDS.includes(word)) throw this.fail(`Unexpected keyword ${quote(t.text)} at position ${t.pos}`);
        return { kind: 'column', name: t.text };
      }
      default:
        throw this.unexpected(t);
    }
  }
}

/**
 * Parse a `$filter` expression. `what` names the option in the error title
 * ("Invalid $filter" by default; e.g. 'label' gives "Invalid label").
 */
export function parseFilter(text: string, what = '$filter'): FilterNode {
  const title = `Invalid ${what}`;
  const fail = (detail: string): ApiError => badRequest(title, detail);
  if (typeof text !== 'string') throw fail('The expression is missing');
  if (text.length > MAX_QUERY_LENGTH) {
    throw fail(`The expression is too long (${text.length} characters, at most ${MAX_QUERY_LENGTH})`);
  }
  return new Parser(tokenize(text, fail), fail).parse();
}
