/**
 * The document print processes, by AD_Process_ID, with the table each prints. They have no class:
 * like the original's report control, the runner recognises them by id and prints the run's
 * record with its form (src/print/document-print.ts).
 */
/** The payment's print process (a new one: the original prints payments by their print format, without a process). */
export const PAYMENT_PRINT_PROCESS_ID = 1108000;

export const DOCUMENT_PRINT_PROCESSES: ReadonlyMap<number, string> = new Map([
  [110, 'c_order'], // Rpt C_Order, Order Print
  [116, 'c_invoice'], // Rpt C_Invoice, Invoice Print
  [117, 'm_inout'], // Rpt M_InOut, Delivery Note / Shipment Print
  [290, 'm_movement'], // Rpt M_Movement, Inventory Move Print
  [291, 'm_inventory'], // Rpt M_Inventory, Physical Inventory Print
  [1100002, 'gl_journal'], // Rpt GL_Journal, GL Journal Print
  [1101006, 'c_bankstatement'], // Bank Statement Print
  [1101007, 'c_cash'], // Cash Journal Print
  [PAYMENT_PRINT_PROCESS_ID, 'c_payment'], // Rpt C_Payment, Payment Print
]);

/** The print process of a table's records, for a table no window shows. */
export function tablePrintProcess(tableName: string): number | null {
  for (const [id, table] of DOCUMENT_PRINT_PROCESSES) if (table === tableName) return id;
  return null;
}

/** The class key the runner binds the document print processes to. */
export const DOCUMENT_PRINT_CLASS = 'dictum.print.DocumentPrint';
