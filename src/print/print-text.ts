import type { Queryable } from '../db/types.js';

/** The number locale of an iDempiere language ("de_DE" -> "de-DE"); en-US when Intl does not know it. */
export function localeOf(language: string): string {
  const tag = language.replace('_', '-');
  try {
    return Intl.NumberFormat.supportedLocalesOf([tag]).length ? tag : 'en-US';
  } catch {
    return 'en-US';
  }
}

/** How a printed form writes its numbers: amounts at the currency's precision, all with grouping. */
export interface NumberStyle {
  locale: string;
  precision: number;
}

/** An amount with grouping and exactly the currency's decimals ("1,234.50"; "1.234,50" in German); never "-0.00". */
export function amountText(n: number, style: NumberStyle): string {
  const p = Math.max(0, Math.min(12, style.precision));
  const rounded = Math.abs(n) < 0.5 * 10 ** -p ? 0 : n;
  return new Intl.NumberFormat(style.locale, { minimumFractionDigits: p, maximumFractionDigits: p, useGrouping: true }).format(rounded);
}

/** A quantity with grouping and the decimals it has (up to 6). */
export function quantityText(n: number, style: NumberStyle): string {
  return new Intl.NumberFormat(style.locale, { maximumFractionDigits: 6, useGrouping: true }).format(n);
}

/**
 * The name of a list value in a language (AD_Ref_List_Trl, else AD_Ref_List's name), as a window
 * shows it: "Completed", not "CO". The value itself when the list does not have it.
 */
export async function listName(q: Queryable, referenceId: number, value: string | null, language: string): Promise<string> {
  if (value === null || value === '') return '';
  const { rows } = await q.query<{ name: string }>(
    `SELECT COALESCE(t.name, l.name) AS name FROM ad_ref_list l
       LEFT JOIN ad_ref_list_trl t ON t.ad_ref_list_id = l.ad_ref_list_id AND t.ad_language = $3 AND t.isactive = 'Y'
      WHERE l.ad_reference_id = $1 AND l.value = $2 ORDER BY l.isactive DESC LIMIT 1`,
    [referenceId, value, language],
  );
  return rows[0]?.name ?? value;
}

/** AD_Reference_ID of the lists printed forms show by name. */
export const DOCUMENT_STATUS_LIST = 131;
export const TENDER_TYPE_LIST = 214;
