/**
 * Exact decimal arithmetic for document amounts: a value is an integer of units and a scale
 * (units / 10^scale), so that prices, quantities and taxes round the way the original's
 * BigDecimal does (HALF_UP: ties away from zero) instead of the way binary floats happen to.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** What the database drivers and the record engine hand over for a numeric column. */
export type DecimalInput = Decimal | number | string | bigint | null | undefined;

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** Powers of ten up to 10^40, made once: every change of scale needs one. */
const POW10 = Array.from({ length: 41 }, (_, i) => 10n ** BigInt(i));
const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n);

export const ZERO: Decimal = { units: 0n, scale: 0 };

function isDecimal(v: unknown): v is Decimal {
  return typeof v === 'object' && v !== null && typeof (v as Decimal).units === 'bigint';
}

/** Reads a number, decimal text or Decimal; null and undefined read as zero. */
export function dec(v: DecimalInput): Decimal {
  if (v === null || v === undefined) return ZERO;
  if (isDecimal(v)) return v;
  if (typeof v === 'bigint') return { units: v, scale: 0 };
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return { units: BigInt(v), scale: 0 };
    if (!Number.isFinite(v)) throw new RangeError(`Not a finite number: ${v}`);
  }
  const text = String(v);
  let found = PARSED.get(text);
  if (!found) {
    found = parse(text.trim());
    // Amounts repeat (a document's lines, their facts, zero): each text is parsed once while it stays in use.
    if (PARSED.size >= PARSED_MAX) PARSED.clear();
    PARSED.set(text, found);
  }
  return found;
}

const PARSED = new Map<string, Decimal>();
const PARSED_MAX = 8192;

function parse(text: string): Decimal {
  const m = DECIMAL_TEXT.exec(text);
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) throw new RangeError(`Not a decimal number: ${text}`);
  const [, sign, whole = '', fraction = '', exponent] = m;
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - (exponent ? Number(exponent) : 0);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** The same value at a larger scale (never loses digits). */
function widen(a: Decimal, scale: number): bigint {
  return a.units * pow10(scale - a.scale);
}

// Amounts of one currency mostly share their scale: add and sub then leave the units as they are.
export function add(a: DecimalInput, b: DecimalInput): Decimal {
  const x = dec(a);
  const y = dec(b);
  if (x.scale === y.scale) return { units: x.units + y.units, scale: x.scale };
  const scale = Math.max(x.scale, y.scale);
  return { units: widen(x, scale) + widen(y, scale), scale };
}

export function sub(a: DecimalInput, b: DecimalInput): Decimal {
  const y = dec(b);
  const x = dec(a);
  if (x.scale === y.scale) return { units: x.units - y.units, scale: x.scale };
  const scale = Math.max(x.scale, y.scale);
  return { units: widen(x, scale) - widen(y, scale), scale };
}

export function mul(a: DecimalInput, b: DecimalInput): Decimal {
  const x = dec(a);
  const y = dec(b);
  return { units: x.units * y.units, scale: x.scale + y.scale };
}

/** n / d rounded HALF_UP to an integer (ties away from zero). */
function divideHalfUp(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('Division by zero');
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  let q = an / ad;
  if ((an % ad) * 2n >= ad) q += 1n;
  return negative ? -q : q;
}

/** a / b with `scale` digits after the point, HALF_UP. */
export function div(a: DecimalInput, b: DecimalInput, scale: number): Decimal {
  const x = dec(a);
  const y = dec(b);
  // (x.units / 10^x.scale) / (y.units / 10^y.scale) * 10^scale
  const n = x.units * pow10(scale + y.scale);
  const d = y.units * pow10(x.scale);
  return { units: divideHalfUp(n, d), scale };
}

/** Rounds to `scale` digits after the point, HALF_UP (the original's rounding of amounts). */
export function round(a: DecimalInput, scale: number): Decimal {
  const x = dec(a);
  if (x.scale <= scale) return { units: widen(x, scale), scale };
  return { units: divideHalfUp(x.units, pow10(x.scale - scale)), scale };
}

export function compare(a: DecimalInput, b: DecimalInput): number {
  const d = sub(a, b).units;
  return d === 0n ? 0 : d < 0n ? -1 : 1;
}

export const isZero = (a: DecimalInput): boolean => dec(a).units === 0n;

/** Plain decimal text, every digit of the scale kept ("23.00", "-0.5"). */
export function toText(a: DecimalInput): string {
  if (typeof a !== 'string') return textOf(dec(a));
  // Texts repeat as amounts do (a statement's facts write each amount several times): each is rewritten once while it stays in use.
  let text = TEXTS.get(a);
  if (text === undefined) {
    text = textOf(dec(a));
    if (TEXTS.size >= PARSED_MAX) TEXTS.clear();
    TEXTS.set(a, text);
  }
  return text;
}

const TEXTS = new Map<string, string>();

/** The text of -a, every digit of the scale kept (a zero keeps its text, as 0 - a does). */
export function negated(a: DecimalInput): string {
  const text = toText(a);
  if (dec(text).units === 0n) return text;
  return text.charCodeAt(0) === 45 ? text.slice(1) : `-${text}`;
}

function textOf(x: Decimal): string {
  if (x.scale === 0) return x.units.toString();
  const negative = x.units < 0n;
  const digits = (negative ? -x.units : x.units).toString().padStart(x.scale + 1, '0');
  const whole = digits.slice(0, digits.length - x.scale);
  const fraction = x.scale > 0 ? `.${digits.slice(digits.length - x.scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** As a JS number, for rows and JSON (amounts of currencies fit a double exactly enough). */
export function toNumber(a: DecimalInput): number {
  const n = Number(toText(a));
  return Object.is(n, -0) ? 0 : n;
}
