/** What an attribute set says about the text of its instances. */
export interface DescribedSet {
  isserno: string | null;
  islot: string | null;
  isguaranteedate: string | null;
  sernocharsoverwrite?: string | null;
  sernochareoverwrite?: string | null;
  lotcharsoverwrite?: string | null;
  lotchareoverwrite?: string | null;
}

/** The parts of an instance its description is made of. */
export interface DescribedInstance {
  serno?: unknown;
  lot?: unknown;
  guaranteedate?: unknown;
}

/** A set's own bracket character when it gives exactly one that is not a blank, else the default. */
const bracket = (overwrite: string | null | undefined, fallback: string): string =>
  typeof overwrite === 'string' && overwrite.length === 1 && overwrite !== ' ' ? overwrite : fallback;

const text = (v: unknown): string | null => (v === null || v === undefined || String(v) === '' ? null : String(v));

/** The calendar day of a date value (ISO text or Date), as yyyy-mm-dd. */
function day(v: unknown): string | null {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const t = text(v);
  return t === null ? null : t.slice(0, 10);
}

/** The values an instance holds for the attributes of its set, in the set's order (M_AttributeUse.SeqNo). */
export interface AttributeValues {
  /** Values of instance attributes (those without a value left out). */
  instance: string[];
  /** Values of product attributes the instance holds (empty text for one without a value). */
  product: string[];
}

const NO_VALUES: AttributeValues = { instance: [], product: [] };

/**
 * The description of an attribute set instance as the original builds it: the values of its
 * instance attributes, the serial number between its brackets (# and nothing unless the set
 * overrides them), the lot between « and », the guarantee date (each of these three only when the
 * set uses it), then the values of its product attributes, joined by "_". Empty when nothing applies.
 */
export function instanceDescription(set: DescribedSet, asi: DescribedInstance, values: AttributeValues = NO_VALUES): string {
  const parts: string[] = [...values.instance];
  const serNo = text(asi.serno);
  if (set.isserno === 'Y' && serNo !== null) parts.push(`${bracket(set.sernocharsoverwrite, '#')}${serNo}${bracket(set.sernochareoverwrite, '')}`);
  const lot = text(asi.lot);
  if (set.islot === 'Y' && lot !== null) parts.push(`${bracket(set.lotcharsoverwrite, '\u00ab')}${lot}${bracket(set.lotchareoverwrite, '\u00bb')}`);
  const guarantee = day(asi.guaranteedate);
  if (set.isguaranteedate === 'Y' && guarantee !== null) parts.push(guarantee);
  parts.push(...values.product);
  return parts.join('_');
}

/** The next number of a lot or serial number control: prefix, number, suffix. */
export const controlNumber = (prefix: unknown, no: unknown, suffix: unknown): string => `${text(prefix) ?? ''}${String(no)}${text(suffix) ?? ''}`;
