import type { Tx } from '../types.js';
import { ident } from '../sql.js';
import { bootstrap } from '../../seed/bootstrap.js';
import { AUTH_INDEXES } from '../../auth/indexes.js';
import { addSeedReferences, addSeedTables } from '../../seed/add-tables.js';
import { addDataModelAdditions } from '../../seed/data-model-additions.js';
import { addGlAccounts } from '../../seed/gl-accounts.js';
import { addPeriodEndSeed } from '../../seed/gl-period-end.js';
import { addBankAndCashDemo, addBankAndCashPrints } from '../../seed/bank-cash-demo.js';
import { readSeedData, readSeedDictionary } from '../../seed/dictionary-files.js';
import { identifierIndexName, identifierIndexReplacement } from '../../dictionary/ddl.js';
import { loadDictionary } from '../../dictionary/load.js';
import type { Dictionary } from '../../dictionary/model.js';
import { synchroniseSchema } from '../../dictionary/sync.js';
import { retypeIdLookups } from '../../dictionary/retype-lookups.js';
import { hashClearTextPasswords } from '../../auth/hash-stored-passwords.js';
import { applySeedColumnValues } from '../../seed/seed-column-values.js';
import { QUEUE_SCHEMA } from '../../queue/queue-schema.js';
import { addProcessSeed, addStandardProcessSeed } from '../../processes/process-seed.js';
import { addPrintProcessSeed } from '../../print/print-seed.js';
import { addPrintFormSeed } from '../../print/printforms-seed.js';
import { addPeriodControls } from '../../documents/engine/period.js';
import { addDemoMatches, mergeDoubleMatches } from '../../documents/engine/match-demo.js';
import { NODE_SCHEMA } from '../../nodes/node-schema.js';
import { addWorkflowSeed } from '../../workflow/workflow-seed.js';
import { SCHEDULER_SCHEMA } from '../../schedulers/scheduler-schema.js';
import { stampSchema } from '../../dictionary/stamp.js';
import { DICTIONARY_TABLES } from '../../dictionary/cache.js';
import { addSeedPlaces } from '../../seed/places.js';
import { movePlacesToOriginalIds } from '../../seed/place-ids.js';
import { addFinancialStatements } from '../../seed/financial-statements.js';
import { ATTEMPT_SCHEMA } from '../../auth/attempt-window.js';
import { QUEUE_CONTROL_SCHEMA } from '../../queue/queue-control.js';
import { addDunningSeed, addOpenItemsSeed, addPaymentScheduleSeed, addPaySelectionSeed } from '../../seed/payrun-seed.js';
import { addWarehouseDifferenceAccounts } from '../../documents/inventory/warehouse-accounts-seed.js';
import { addReturnSeed } from '../../seed/returns-seed.js';
import { addBuyingSeed } from '../../seed/buying-seed.js';
import { IDEMPOTENCY_SCHEMA } from '../../idempotency/idempotency-schema.js';
import { addPricingSeed } from '../../seed/pricing-seed.js';
import { addOpeningStockCounts } from '../../documents/inventory/opening-stock-seed.js';
import { addReplenishReport } from '../../documents/replenish/replenish-seed.js';
import { addStockView } from '../../documents/stock-view/stock-view-seed.js';
import { addStockPrintSeed } from '../../documents/stock-print/stock-print-seed.js';

export interface Migration {
  version: number;
  name: string;
  up(tx: Tx): Promise<void>;
}

/** Versioned migrations, applied in order, each exactly once per database. */
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'dictionary, schema and demo company',
    async up(tx) {
      await bootstrap(tx);
    },
  },
  {
    version: 2,
    name: 'indexes of authentication lookups',
    async up(tx) {
      for (const statement of AUTH_INDEXES) await tx.query(statement);
    },
  },
  {
    version: 3,
    name: 'indexes described by the dictionary (AD_TableIndex, AD_IndexColumn)',
    async up(tx) {
      await addSeedTables(tx, ['AD_TableIndex', 'AD_IndexColumn']);
      // The dictionary as this database holds it now, with the seeded indexes, gives the schema to reach.
      await synchroniseSchema(tx, await loadDictionary(tx));
    },
  },
  {
    version: 4,
    name: 'identifier indexes without the client column',
    async up(tx) {
      const dict = await loadDictionary(tx);
      await synchroniseSchema(tx, dict);
      // The built-in index they replace; it only slowed writes down from now on.
      for (const table of dict.tables) if (!table.isView) await tx.query(`DROP INDEX IF EXISTS ${ident(`${table.dbName}_client_ident_idx`.slice(0, 63))}`);
    },
  },
  {
    version: 5,
    name: 'included index columns (AD_IndexColumn.IsIncluded); dictionary indexes led by the identifier replace the built-in one',
    async up(tx) {
      // The column IsIncluded and the seed's index rows that use it (c_bpartner_name).
      await addSeedTables(tx, ['AD_TableIndex', 'AD_IndexColumn']);
      const dict = await loadDictionary(tx);
      await synchroniseSchema(tx, dict);
      await dropReplacedIdentifierIndexes(tx, dict);
    },
  },
  {
    version: 6,
    name: 'write access to organization * only through an access row (GardenWorld Admin gets one); clear-text passwords hashed',
    async up(tx) {
      await addSeedTables(tx, ['AD_Role_OrgAccess']);
      await hashClearTextPasswords(tx);
      // The spec sets these per client; a client row is refused below a System-level key.
      await tx.query(
        `UPDATE ad_sysconfig SET configurationlevel = 'C' WHERE ad_client_id = 0 AND ad_org_id = 0
           AND name IN ('REST_WEBHOOK_ENABLED', 'REST_WEBHOOK_INBOUND_ENABLED', 'REST_WEBHOOK_TIMEOUT_MS')`,
      );
    },
  },
  {
    version: 7,
    name: 'role table access rules (AD_Table_Access)',
    async up(tx) {
      await addSeedReferences(tx, [293]);
      await addSeedTables(tx, ['AD_Table_Access']);
    },
  },
  {
    version: 8,
    name: "GardenWorld's check print format (124), which bank account documents name",
    async up(tx) {
      await addSeedTables(tx, ['AD_PrintFormat']);
    },
  },
  {
    version: 9,
    name: 'upload sessions and chunks are System tables: their bytes are read through /uploads by their owner only',
    async up(tx) {
      await tx.query(`UPDATE ad_table SET accesslevel = '4' WHERE tablename IN ('REST_Upload', 'REST_UploadChunk')`);
    },
  },
  {
    version: 10,
    name: "IsActive updateable on every table; the original's new-record values for mandatory Yes/No and Button columns",
    async up(tx) {
      await applySeedColumnValues(tx);
    },
  },
  {
    version: 11,
    name: 'workflow approvals: the approval node of Process_Order, the demo Order Review workflow, demo orders pending in workflows, approval amounts of the demo roles',
    async up(tx) {
      await addWorkflowSeed(tx);
    },
  },
  {
    version: 12,
    name: 'workflow transition conditions (AD_WF_NextCondition) with their And/Or and Operation lists',
    async up(tx) {
      await addSeedReferences(tx, [204, 205]);
      await addSeedTables(tx, ['AD_WF_NextCondition']);
    },
  },
  {
    version: 13,
    name: 'an index of the workflow waits the Workflow Processor looks for (suspended activities with an end of wait)',
    async up(tx) {
      await tx.query(`CREATE INDEX IF NOT EXISTS ad_wf_activity_wait_idx ON ad_wf_activity (endwaittime) WHERE processed = 'N' AND wfstate = 'OS' AND endwaittime IS NOT NULL`);
    },
  },
  {
    version: 14,
    name: 'a stamp of the dictionary renewed by every write to its tables, so that a loaded dictionary can be kept under it',
    async up(tx) {
      for (const statement of stampSchema(DICTIONARY_TABLES)) await tx.query(statement);
    },
  },
  {
    version: 17,
    name: 'an index of the unfinished workflow activities of a record, which a document action looks for first',
    async up(tx) {
      await tx.query(`CREATE INDEX IF NOT EXISTS ad_wf_activity_open_record_idx ON ad_wf_activity (ad_table_id, record_id) WHERE processed = 'N'`);
    },
  },
  {
    version: 15,
    name: 'webhook deliveries claimed from their log: an index of the unfinished ones, and no queue items of them',
    async up(tx) {
      const exists = async (name: string) => !!(await tx.query<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [name])).rows[0]?.t;
      if (await exists('rest_webhook_out_log')) {
        await tx.query(`CREATE INDEX IF NOT EXISTS rest_webhook_out_log_unfinished_idx ON rest_webhook_out_log (rest_webhook_out_log_id) WHERE deliverystatus IN ('P', 'I')`);
      }
      // Deliveries were queue items before; their log rows (Pending) are what the dispatcher claims now.
      if (await exists('dictum.queue_item')) await tx.query(`DELETE FROM dictum.queue_item WHERE kind = 'webhook-delivery'`);
    },
  },
  {
    version: 16,
    name: 'the demo schedule of the Webhook Retry Processor runs every ten minutes, as the original',
    async up(tx) {
      await tx.query(`UPDATE ad_schedule SET name = 'Every 10 minutes', description = 'Runs every ten minutes', frequency = 10 WHERE ad_schedule_id = 200001 AND frequencytype = 'M' AND frequency = 5`);
    },
  },
  {
    version: 20,
    name: 'documents: default accounts (C_AcctSchema_Default), their accounts, the keys of stock, reservations and facts, the facts of vendor invoice 200000 and the service line of shipment 500000',
    async up(tx) {
      await addSeedTables(tx, ['C_AcctSchema_Default', 'C_ElementValue', 'C_ValidCombination', 'AD_TableIndex', 'AD_IndexColumn', 'Fact_Acct', 'M_InOutLine']);
      await synchroniseSchema(tx, await loadDictionary(tx));
      // The demo's completed vendor invoice was not posted; its facts come with the seed rows above.
      await tx.query(`UPDATE c_invoice SET posted = 'Y' WHERE c_invoice_id = 105 AND ad_client_id = 11 AND posted = 'N'`);
      await tx.query('UPDATE c_invoiceline SET m_inoutline_id = 104 WHERE c_invoiceline_id = 102 AND m_inoutline_id IS NULL AND EXISTS (SELECT 1 FROM m_inoutline WHERE m_inoutline_id = 104)');
    },
  },
  {
    version: 21,
    name: 'documents: period control per document base type (C_PeriodControl) with its open/close processes, matching of receipts, invoices and purchase order lines (M_MatchInv, M_MatchPO), payment discount and write-off accounts',
    async up(tx) {
      await addSeedReferences(tx, [176, 177]);
      await addSeedTables(tx, ['C_PeriodControl', 'M_MatchInv', 'M_MatchPO', 'C_ElementValue', 'C_ValidCombination', 'C_AcctSchema_Default']);
      await synchroniseSchema(tx, await loadDictionary(tx));
      await tx.query(
        `UPDATE c_acctschema_default SET paydiscount_exp_acct = 59300, paydiscount_rev_acct = 79300, writeoff_acct = 67800
          WHERE c_acctschema_id = 101 AND paydiscount_exp_acct IS NULL AND (SELECT count(*) FROM c_validcombination WHERE c_validcombination_id IN (59300, 79300, 67800)) = 3`,
      );
      // Existing periods are open for every document base type (the demo keeps automatic period control on).
      await addPeriodControls(tx, null, 'O', 100, new Date().toISOString());
      await addProcessSeed(tx);
      await addDemoMatches(tx);
    },
  },
  {
    version: 30,
    name: 'the durable work queue (dictum.queue_item)',
    async up(tx) {
      for (const statement of QUEUE_SCHEMA) await tx.query(statement);
    },
  },
  {
    version: 31,
    name: 'built-in processes (AD_Process, parameters, access), job notice message, print formats',
    async up(tx) {
      await addProcessSeed(tx);
    },
  },
  {
    version: 40,
    name: 'references keep the UUIDs clients know them by (supplement referenceUUs)',
    async up(tx) {
      for (const r of readSeedDictionary().references) {
        if (r.ad_reference_uu) await tx.query('UPDATE ad_reference SET ad_reference_uu = $1 WHERE ad_reference_id = $2', [r.ad_reference_uu, r.ad_reference_id]);
      }
    },
  },
  {
    version: 41,
    name: 'processes of the standard info windows (AD_InfoProcess seed rows)',
    async up(tx) {
      await addSeedTables(tx, ['AD_InfoWindow', 'AD_InfoColumn', 'AD_InfoProcess', 'AD_InfoRelated', 'AD_InfoWindow_Access']);
    },
  },
  {
    version: 42,
    name: 'status line Dashboard_OrderCount counts orders of the top and the current year (AD_StatusLine 200024, AD_Message 200501)',
    async up(tx) {
      const data = readSeedData();
      const line = data.get('AD_StatusLine')?.find((r) => r.AD_StatusLine_ID === 200024);
      const message = data.get('AD_Message')?.find((r) => r.AD_Message_ID === 200501);
      if (line) await tx.query('UPDATE ad_statusline SET sqlstatement = $1 WHERE ad_statusline_id = 200024', [line.SQLStatement]);
      if (message) await tx.query('UPDATE ad_message SET msgtext = $1 WHERE ad_message_id = 200501', [message.MsgText]);
    },
  },
  {
    version: 43,
    name: 'chart datasources (AD_ChartDatasource) and the demo charts over orders and invoices',
    async up(tx) {
      await addSeedTables(tx, ['AD_Chart', 'AD_ChartDatasource']);
    },
  },
  {
    version: 44,
    name: 'translations of list values (AD_Ref_List_Trl)',
    async up(tx) {
      await addSeedTables(tx, ['AD_Ref_List_Trl']);
    },
  },
  {
    version: 50,
    name: 'REST views (REST_View, REST_ViewColumn, REST_ViewRelated), bank account documents and their tab; the Order Tax tab is advanced',
    async up(tx) {
      await addSeedTables(tx, ['C_BankAccountDoc', 'REST_View', 'REST_ViewColumn', 'REST_ViewRelated', 'AD_Tab']);
      await tx.query(`UPDATE ad_tab SET isadvancedtab = 'Y' WHERE ad_tab_id = 188`);
    },
  },
  {
    version: 51,
    name: 'the demo REST view salesOrders (sales orders with customer, status and total)',
    async up(tx) {
      await addSeedTables(tx, ['REST_View', 'REST_ViewColumn']);
    },
  },
  {
    version: 70,
    name: 'the node registry of the cluster (dictum.node)',
    async up(tx) {
      for (const statement of NODE_SCHEMA) await tx.query(statement);
    },
  },
  {
    version: 71,
    name: 'scheduler firings claimed once across the cluster (dictum.scheduler_firing)',
    async up(tx) {
      for (const statement of SCHEDULER_SCHEMA) await tx.query(statement);
    },
  },
  {
    version: 72,
    name: 'schedulers as servers: the Scheduler window with its access, and a scheduler that fires is Started (R); Scheduled (S) is now stopped in the server manager',
    async up(tx) {
      await addSeedTables(tx, ['AD_Window', 'AD_Tab', 'AD_Field', 'AD_Window_Access']);
      await tx.query(`UPDATE ad_scheduler SET schedulerstate = 'R' WHERE schedulerstate = 'S'`);
    },
  },
  {
    version: 75,
    name: 'document print processes (Rpt C_Order, Rpt C_Invoice, Rpt M_InOut) on the header tabs of the document windows',
    async up(tx) {
      await addPrintProcessSeed(tx);
    },
  },
  {
    version: 76,
    name: 'standard processes: document processes of invoices, shipments, payments and allocations (Process_Allocation workflow), Storage Detail (RV_Storage), Role Access Update',
    async up(tx) {
      await addStandardProcessSeed(tx);
    },
  },
  {
    version: 77,
    name: "the original's countries (C_Country), their regions (C_Region) and the currencies they use (C_Currency)",
    async up(tx) {
      await addSeedPlaces(tx);
    },
  },
  {
    version: 78,
    name: "countries and regions at the original's ids: the demo's United Kingdom, Spain, Australia and twelve US states and Canadian provinces move there with every reference to them, and the original's rows migration 77 put at id plus 9000 take their own ids",
    async up(tx) {
      await movePlacesToOriginalIds(tx);
    },
  },
  {
    version: 80,
    name: 'realized gain and loss accounts (C_AcctSchema_Default.RealizedGain_Acct, RealizedLoss_Acct) with the demo accounts 80540 and 82540',
    async up(tx) {
      await addSeedTables(tx, ['C_ElementValue', 'C_ValidCombination', 'C_AcctSchema_Default']);
      await synchroniseSchema(tx, await loadDictionary(tx));
      await tx.query(
        `UPDATE c_acctschema_default SET realizedgain_acct = 80540, realizedloss_acct = 82540
          WHERE c_acctschema_id = 101 AND realizedgain_acct IS NULL AND (SELECT count(*) FROM c_validcombination WHERE c_validcombination_id IN (80540, 82540)) = 2`,
      );
    },
  },
  {
    version: 81,
    name: 'documents: inventory clearing and invoice price variance accounts (C_AcctSchema_Default P_InventoryClearing_Acct 51290, P_InvoicePriceVariance_Acct 58100) for posting vendor invoices and their matches with receipts; one purchase order match where a receipt line and an invoice line were matched twice',
    async up(tx) {
      await addSeedTables(tx, ['C_ElementValue', 'C_ValidCombination', 'C_AcctSchema_Default']);
      await synchroniseSchema(tx, await loadDictionary(tx));
      await tx.query(
        `UPDATE c_acctschema_default SET p_inventoryclearing_acct = 51290, p_invoicepricevariance_acct = 58100
          WHERE c_acctschema_id = 101 AND p_inventoryclearing_acct IS NULL AND (SELECT count(*) FROM c_validcombination WHERE c_validcombination_id IN (51290, 58100)) = 2`,
      );
      await mergeDoubleMatches(tx);
    },
  },
  {
    version: 82,
    name: 'charge accounts (C_Charge_Acct) with the accounts of the demo charges; lookups of ids stored as numbers whatever their name (C_Conversion_Rate.C_Currency_ID_To, AD_Ref_Table.AD_Key and AD_Display)',
    async up(tx) {
      await addSeedTables(tx, ['C_ElementValue', 'C_ValidCombination', 'C_Charge_Acct']);
      await retypeIdLookups(tx, await loadDictionary(tx));
    },
  },
  {
    version: 90,
    name: 'M_Product.Description holds 255 characters (the reference data model gave it 1)',
    async up(tx) {
      await tx.query(`UPDATE ad_column SET fieldlength = 255 WHERE ad_column_id = 1212 AND fieldlength < 255`);
      await tx.query('ALTER TABLE m_product ALTER COLUMN description TYPE varchar(255)');
    },
  },
  {
    version: 100,
    name: "the data model's finance, inventory, pricing, returns, projects, manufacturing and assets tables (GL journals, bank statements, cash, payment selections, dunning runs, financial reports, moves, counts, attributes, costs, discount breaks, requisitions, ...), and their own columns for the tables that stood in for them",
    async up(tx) {
      await addDataModelAdditions(tx);
    },
  },
  {
    version: 140,
    name: 'financial statements: report sources (PA_ReportSource), the summary accounts and report sets of the demo company (balance sheet, income statement, trial balance), the processes Financial Report, Aging and General Ledger Detail, open items by due date for the "Open Invoices by Age" chart, and an index of the facts by schema, account and date',
    async up(tx) {
      await addFinancialStatements(tx);
    },
  },
  {
    version: 160,
    name: 'failed logins and password reset requests counted in the database, so that the limits hold for all instances together (dictum.auth_attempt)',
    async up(tx) {
      for (const statement of ATTEMPT_SCHEMA) await tx.query(statement);
    },
  },
  {
    version: 161,
    name: 'background jobs: when a queue item started, cancellations and progress (dictum.queue_control), the cancelled state',
    async up(tx) {
      for (const statement of QUEUE_CONTROL_SCHEMA) await tx.query(statement);
    },
  },
  {
    version: 110,
    name: 'accounts of GL journals and period end in the demo chart: capital, retained earnings, unrealized gain and loss, with their combinations',
    async up(tx) {
      await addGlAccounts(tx);
    },
  },
  {
    version: 111,
    name: 'period end: unrealized gain and loss accounts of the schema defaults, retained earnings of the schema GL accounts (with the demo accounts), the revaluation and year-end close processes',
    async up(tx) {
      await addPeriodEndSeed(tx);
    },
  },
  {
    version: 130,
    name: 'payment schedules: the demo 50/50 payment term (108) gets its two installments; completed invoices get theirs (C_InvoicePaySchedule)',
    async up(tx) {
      await addPaymentScheduleSeed(tx);
    },
  },
  {
    version: 131,
    name: 'payment selections: the processes Create From Invoices (156), Prepare Payment (155), Reverse Prepare Payment (200136) and Payment Print/Export with their parameters and access; a new selection is named by its time and totals zero',
    async up(tx) {
      await addPaySelectionSeed(tx);
    },
  },
  {
    version: 132,
    name: 'dunning: the demo dunning (100) with its levels (101 and a second notice with a fee), standard customers dunned by it; the processes Create Dunning Run, Print Dunning Letters (159) and Process Dunning Run',
    async up(tx) {
      await addDunningSeed(tx);
    },
  },
  {
    version: 133,
    name: 'the Open Items report (RV_OpenItem): open installments of invoices with their due dates, days due and discounts',
    async up(tx) {
      await addOpenItemsSeed(tx);
    },
  },
  {
    version: 120,
    name: 'bank statements, cash journals and bank transfers: interest and cash book accounts, the demo bank accounts\' and cash book\'s accounting, the Cash Journal document type (CMC), the demo cash book and cash journal 101, the Bank Statement Matcher and Bank Transfer processes',
    async up(tx) {
      await addBankAndCashDemo(tx);
    },
  },
  {
    version: 121,
    name: 'print processes of bank statements and cash journals (Bank Statement Print, Cash Journal Print)',
    async up(tx) {
      await addBankAndCashPrints(tx);
    },
  },
  {
    version: 210,
    name: 'warehouse differences account (M_Warehouse_Acct.W_Differences_Acct, demo account 56100) that physical inventory differences post to',
    async up(tx) {
      await addWarehouseDifferenceAccounts(tx);
    },
  },
  {
    version: 200,
    name: "documents fit to send: the demo's letterhead logo, the payment's print process, document status names in the demo's other languages",
    async up(tx) {
      await addPrintFormSeed(tx);
    },
  },
  {
    version: 240,
    name: 'returns by RMA: the vendor return document types (150 Vendor Return Material, 151 MM Vendor Return), the RMA type Damage on Arrival, and the processes generating the return documents (52001) and credit memos (52002) of an RMA',
    async up(tx) {
      await addReturnSeed(tx);
    },
  },
  {
    version: 241,
    name: 'buying: the process Create PO from Requisition (337) with its parameters',
    async up(tx) {
      await addBuyingSeed(tx);
    },
  },
  {
    version: 190,
    name: 'answers kept for Idempotency-Key (dictum.idempotent_request)',
    async up(tx) {
      for (const statement of IDEMPOTENCY_SCHEMA) await tx.query(statement);
    },
  },
  {
    version: 230,
    name: 'pricing: the Create Price List process (103) run from a price list version, with its DeleteOld parameter and access',
    async up(tx) {
      await addPricingSeed(tx);
    },
  },
  {
    version: 270,
    name: 'replenishment: the Replenish Report (53267) with its parameters and the list of what it creates (purchase orders, requisitions, moves)',
    async up(tx) {
      await addReplenishReport(tx);
    },
  },
  {
    version: 271,
    name: 'stock per product and warehouse: the view M_Product_Stock_v (on hand, reserved, ordered, available) and those quantities in the Product Info window',
    async up(tx) {
      await addStockView(tx);
    },
  },
  {
    version: 272,
    name: 'printed forms of inventory moves and physical inventories: the processes Inventory Move Print (290) and Physical Inventory Print (291) with their access',
    async up(tx) {
      await addStockPrintSeed(tx);
    },
  },
  {
    version: 280,
    name: "the demo's opening stock: a completed physical inventory per warehouse with the transactions of what its storage holds",
    async up(tx) {
      await addOpeningStockCounts(tx);
    },
  },
];

/**
 * Drops each built-in identifier index that a dictionary index led by the same column replaces,
 * once that index exists: a unique one that the rows do not allow is not created, and the
 * built-in index then keeps serving identifier-ordered pages.
 */
async function dropReplacedIdentifierIndexes(tx: Tx, dict: Dictionary): Promise<void> {
  for (const table of dict.tables) {
    if (table.isView) continue;
    const replacement = identifierIndexReplacement(table);
    const builtIn = identifierIndexName(table);
    if (!replacement || replacement.name === builtIn) continue;
    const { rows } = await tx.query('SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexname = $2', [table.dbName, replacement.name]);
    if (rows.length) await tx.query(`DROP INDEX IF EXISTS ${ident(builtIn)}`);
  }
}
