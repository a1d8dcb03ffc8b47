import type { Tx } from '../db/types.js';
import { readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';
import { addProcesses } from './payrun-seed.js';

const DEMO_CLIENT = 11;
/** The GL category of the demo's material management documents. */
const GL_MATERIAL = 111;

export const VENDOR_RMA_DOCTYPE = 150;
export const VENDOR_RETURN_DOCTYPE = 151;
export const GENERATE_RETURNS_CLASS = 'org.adempiere.process.InOutGenerateRMA';
export const GENERATE_CREDIT_MEMOS_CLASS = 'org.adempiere.process.InvoiceGenerateRMA';

const docType = (id: number, name: string, printName: string, base: string, sequence: number, extra: Record<string, unknown>) => ({
  C_DocType_ID: id, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, Name: name, PrintName: printName, DocBaseType: base, IsSOTrx: 'N', GL_Category_ID: GL_MATERIAL,
  IsDocNoControlled: 'Y', DocNoSequence_ID: sequence, IsDefault: 'N', DocumentCopies: 1, HasCharges: 'N', HasProforma: 'N', IsDefaultCounterDoc: 'N', IsCreateCounter: 'Y',
  IsInTransit: 'N', IsIndexed: 'Y', IsPickQAConfirm: 'N', IsShipConfirm: 'N', IsSplitWhenDifference: 'N', IsCanBeReactivated: 'N', IsAutoGenerateInout: 'N',
  IsAutoGenerateInvoice: 'N', IsAlwaysPosted: 'N', IsPrepareSplitDocument: 'Y', Description: `${name} document type`, ...extra,
});

/**
 * Returns by RMA, with the original's demo ids: the vendor return document types (150 Vendor
 * Return Material, a purchase order type of sub type RM whose returns are 151 MM Vendor Return and
 * whose credit memos are AP Credit Memos) with their number sequences, the RMA type Damage on
 * Arrival, and the processes that generate the return documents (52001) and credit memos (52002)
 * of an RMA.
 */
export async function addReturnSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  const sequence = (id: number, name: string, start: number) => ({
    AD_Sequence_ID: id, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, Name: name, Description: `DocumentNo ${name}`, IsTableID: 'N', IsAutoSequence: 'Y', IncrementNo: 1,
    StartNo: start, CurrentNext: start, CurrentNextSys: start, StartNewYear: 'N', StartNewMonth: 'N', IsOrgLevelSequence: 'N', IsAudited: 'N',
  });
  await insertSeedRows(tx, seedTable(dict, 'AD_Sequence'), [sequence(52000, 'Vendor Return Material', 990000), sequence(52001, 'MM Vendor Return', 590000)], now, skip);
  await insertSeedRows(
    tx,
    seedTable(dict, 'C_DocType'),
    [
      docType(VENDOR_RETURN_DOCTYPE, 'MM Vendor Return', 'Vendor Return Material', 'MMS', 52001, {}),
      docType(VENDOR_RMA_DOCTYPE, 'Vendor Return Material', 'Vendor Return Material Authorization', 'POO', 52000, {
        DocSubTypeSO: 'RM', C_DocTypeShipment_ID: VENDOR_RETURN_DOCTYPE, C_DocTypeInvoice_ID: 124,
      }),
    ],
    now,
    skip,
  );
  await insertSeedRows(tx, seedTable(dict, 'M_RMAType'), [{ M_RMAType_ID: 100, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, Name: 'Damage on Arrival' }], now, skip);
  await addProcesses(
    tx,
    [
      { id: 52001, value: 'M_InOut_GenerateRMA (Manual)', name: 'Generate Shipments/Receipts from RMA', description: 'Generate the return documents of a completed RMA', classname: GENERATE_RETURNS_CLASS, params: [[1112000, 'DocAction', 'Document Action', 17, 135, 'CO']] },
      { id: 52002, value: 'C_Invoice_GenerateRMA (Manual)', name: 'Generate Credit Memos from RMA', description: 'Generate the credit memos of the completed returns of an RMA', classname: GENERATE_CREDIT_MEMOS_CLASS, params: [[1112001, 'DocAction', 'Document Action', 17, 135, 'CO']] },
    ],
    now,
  );
}
