/**
 * Document statuses and actions of the original (reference lists 131 and 135) and the transitions
 * its document engine accepts. Pure: no database.
 */
export type DocStatus = 'DR' | 'IP' | 'IN' | 'AP' | 'NA' | 'CO' | 'CL' | 'VO' | 'RE' | 'WP' | 'WC' | '??';
export type DocAction = 'CO' | 'PR' | 'AP' | 'RJ' | 'VO' | 'CL' | 'RC' | 'RA' | 'RE' | 'IN' | 'XL' | 'WC' | 'PO' | '--';

const ACTIONS: readonly DocAction[] = ['CO', 'PR', 'AP', 'RJ', 'VO', 'CL', 'RC', 'RA', 'RE', 'IN', 'XL', 'WC', 'PO', '--'];

/** The actions the engine accepts in each status (the original's action options). */
const ACCEPTED: Record<DocStatus, readonly DocAction[]> = {
  DR: ['PR', 'IN', 'CO', 'XL', 'VO'],
  IN: ['PR', 'IN', 'XL', 'VO'],
  IP: ['CO', 'WC', 'AP', 'RJ', 'XL', 'VO', 'PR'],
  AP: ['CO', 'WC', 'AP', 'RJ', 'XL', 'VO', 'PR'],
  NA: ['RJ', 'PR', 'XL', 'VO'],
  WP: ['CO', 'WC', 'RE', 'VO', 'CL'],
  WC: ['CO', 'WC', 'RE', 'VO', 'CL'],
  CO: ['CL', 'RE', 'RA', 'RC', 'PO', 'VO'],
  CL: ['PO', 'RE'],
  VO: ['PO'],
  RE: ['PO'],
  '??': [],
};

const STATUSES = new Set(Object.keys(ACCEPTED));

export const isDocStatus = (v: unknown): v is DocStatus => typeof v === 'string' && STATUSES.has(v);

/** Whether the engine accepts an action in a status (before the document type's own limits). */
export function isAccepted(status: DocStatus, action: DocAction): boolean {
  return ACCEPTED[status].includes(action);
}

/**
 * The action a request names: "CO" or {"id": "CO"} (any case). Undefined when the body names
 * none; an unknown code is returned as given so that the refusal can name it.
 */
export function parseDocAction(raw: unknown): string | undefined {
  const v = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>).id : raw;
  if (v === undefined || v === null || v === '') return undefined;
  return String(v).trim().toUpperCase();
}

export const isDocAction = (v: string): v is DocAction => (ACTIONS as readonly string[]).includes(v);

/** Finds the doc-action member of a request body, whatever the case of its key. */
export function docActionOfBody(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const [k, v] of Object.entries(body)) if (k.toLowerCase() === 'doc-action') return parseDocAction(v);
  return undefined;
}

/** Status and next action after a successful action (complete and prepare are decided by the document). */
export function afterAction(action: DocAction, completeStatus: DocStatus): { status: DocStatus; next: DocAction; processed: boolean } {
  switch (action) {
    case 'CO':
      return completeStatus === 'CO' ? { status: 'CO', next: 'CL', processed: true } : { status: completeStatus, next: 'CO', processed: false };
    case 'PR':
      return { status: 'IP', next: 'CO', processed: false };
    case 'VO':
      return { status: 'VO', next: '--', processed: true };
    case 'CL':
      return { status: 'CL', next: '--', processed: true };
    case 'RC':
    case 'RA':
      return { status: 'RE', next: '--', processed: true };
    case 'RE':
      return { status: 'IP', next: 'CO', processed: false };
    case 'IN':
      return { status: 'IN', next: 'PR', processed: false };
    case 'XL':
      return { status: 'DR', next: 'CO', processed: false };
    case 'AP':
      return { status: 'AP', next: 'CO', processed: false };
    case 'RJ':
      return { status: 'NA', next: 'PR', processed: false };
    default:
      return { status: 'DR', next: 'CO', processed: false };
  }
}
