/** The accounting facts (Fact_Acct) of a document: its table and record id. */
import { h, table } from './dom.js';
import type { ViewContext } from './context.js';
import type { TableInfo } from './dictionary.js';
import { showValue } from './show-value.js';

export async function factsPanel(ctx: ViewContext, info: TableInfo, id: number): Promise<HTMLElement> {
  const filter = encodeURIComponent(`AD_Table_ID eq ${info.id} and Record_ID eq ${id}`);
  const answer = await ctx.api.call('GET', `/models/fact_acct?$filter=${filter}&$orderby=Fact_Acct_ID&$top=100`);
  const rows = answer.records ?? [];
  const sum = (name: string) => rows.reduce((s: number, r: any) => s + Number(r[name] ?? 0), 0);
  return h(
    'section',
    { class: 'facts', id: 'facts' },
    h('h2', {}, 'Accounting facts'),
    table(
      ['Schema', 'Account', 'Posting type', 'Debit', 'Credit', 'Description'],
      rows,
      (r: any) => [showValue(r.C_AcctSchema_ID), showValue(r.Account_ID), showValue(r.PostingType), String(r.AmtAcctDr ?? ''), String(r.AmtAcctCr ?? ''), r.Description ?? ''],
      'No accounting facts',
    ),
    rows.length ? h('p', { class: 'totals' }, `Total debit ${sum('AmtAcctDr').toFixed(2)}, total credit ${sum('AmtAcctCr').toFixed(2)}`) : null,
  );
}
