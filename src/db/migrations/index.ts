import { addDataModelAdditions } from '../../seed/data-model-additions.js';
import { addGlAccounts } from '../../seed/gl-accounts.js';
import { keyDistributedTablesByClient } from '../../distribution/client-keys.js';
import { addClientToUniqueIndexes } from '../../distribution/client-unique-indexes.js';
import { addPeriodEndSeed } from '../../seed/gl-period-end.js';
import { addBankAndCashDemo, addBankAndCashPrints, addStatementCreateFrom } from '../../seed/bank-cash-demo.js';
import { addPrintFormSeed } from '../../print/printforms-seed.js';
import { addFinancialStatements } from '../../seed/financial-statements.js';
import { ATTEMPT_SCHEMA } from '../../auth/attempt-window.js';
import { QUEUE_CONTROL_SCHEMA } from '../../queue/queue-control.js';
import { addDunningSeed, addOpenItemsSeed, addPaymentScheduleSeed, addPaySelectionSeed } from '../../seed/payrun-seed.js';
import { addWarehouseDifferenceAccounts } from '../../documents/inventory/warehouse-accounts-seed.js';
import { addReturnSeed } from '../../seed/returns-seed.js';
import { addBuyingSeed } from '../../seed/buying-seed.js';
import { IDEMPOTENCY_SCHEMA, KEPT_ANSWER_SCHEMA } from '../../idempotency/idempotency-schema.js';
import { addPricingSeed } from '../../seed/pricing-seed.js';
import { addRfqSeed } from '../../seed/rfq-seed.js';
import { addOpeningStockCounts } from '../../documents/inventory/opening-stock-seed.js';
import { foundationMigrations } from './foundation.js';
import type { Migration } from './migration.js';
import { addLotsSeed } from '../../seed/lots-seed.js';
import { addAttributeUseTable } from '../../seed/attribute-use-seed.js';
import { addReadReplicaSettings } from '../../seed/read-replica-settings.js';
import { addCostingSeed } from '../../documents/costing/costing-seed.js';
import { addCostQueueSeed } from '../../documents/costing/queue-seed.js';
import { addReplenishReport } from '../../documents/replenish/replenish-seed.js';
import { addDemoReplenishLevels } from '../../documents/replenish/replenish-demo-seed.js';
import { addStockView } from '../../documents/stock-view/stock-view-seed.js';
import { addStockPrintSeed } from '../../documents/stock-print/stock-print-seed.js';
import { addTransitSeed } from '../../documents/movement/transit-seed.js';
import { addLandedCostSeed } from '../../documents/landedcost/landed-cost-seed.js';
import { addOrderLandedCostSeed } from '../../documents/landedcost/order-landed-cost-seed.js';
import { addCostAdjustmentSeed } from '../../documents/costadjust/cost-adjustment-seed.js';
import { addErpWindows } from '../../screens/seed/erp-windows.js';
import { addDepositBatchTables } from '../../documents/depositbatch/deposit-batch-seed.js';

export type { Migration } from './migration.js';

/** Versioned migrations, applied in order, each exactly once per database. */
export const migrations: Migration[] = [
  ...foundationMigrations,
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
    version: 122,
    name: 'deposit batches: the document columns of C_DepositBatch (200056) and the table C_DepositBatchLine (200057) of the payments deposited together',
    async up(tx) {
      await addDepositBatchTables(tx);
    },
  },
  {
    version: 123,
    name: 'bank statements: the Create Lines from Payments process (a line per unreconciled payment of the bank account, in a transaction date range)',
    async up(tx) {
      await addStatementCreateFrom(tx);
    },
  },
  {
    version: 124,
    name: "the demo's replenishment levels: M_Replenish rows of five stocked products of the HQ warehouse (reorder below minimum, maintain maximum)",
    async up(tx) {
      await addDemoReplenishLevels(tx);
    },
  },
  {
    version: 125,
    name: 'landed costs estimated on purchase orders: the tables C_OrderLandedCost (200103) and C_OrderLandedCostAllocation (200104), the schema defaults\' Landed Cost Clearing account (P_LandedCostClearing_Acct) and the demo\'s',
    async up(tx) {
      await addOrderLandedCostSeed(tx);
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
    version: 250,
    name: "lots and serial numbers: the demo's lot control, serial number control, the attribute sets Lot Tracked and Serial Numbered and a product of each",
    async up(tx) {
      await addLotsSeed(tx);
    },
  },
  {
    version: 251,
    name: 'the attributes of an attribute set (M_AttributeUse, 563): its dictionary rows and table',
    async up(tx) {
      await addAttributeUseTable(tx);
    },
  },
  {
    version: 252,
    name: "cost adjustments: the demo's document type Cost Adjustment (MMI, DocSubTypeInv CA)",
    async up(tx) {
      await addCostAdjustmentSeed(tx);
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
    version: 274,
    name: 'answers kept for Idempotency-Key keyed by a digest of their scope (dictum.idempotent_answer), with those kept so far',
    async up(tx) {
      for (const statement of KEPT_ANSWER_SCHEMA) await tx.query(statement);
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
    version: 292,
    name: 'tables distributable by AD_Client_ID are keyed by (id, AD_Client_ID) and their UUID index by (UUID, AD_Client_ID), as a distributed PostgreSQL (Citus) requires',
    async up(tx) {
      await keyDistributedTablesByClient(tx);
    },
  },
  {
    version: 293,
    name: 'the unique index of product prices per price list version and product ends with AD_Client_ID (AD_IndexColumn 1122000)',
    async up(tx) {
      await addClientToUniqueIndexes(tx);
    },
  },
  {
    version: 220,
    name: 'requests for quotation: the RfQ tables (C_RfQ_Topic, C_RfQ_TopicSubscriber, C_RfQ, C_RfQLine, C_RfQLineQty, C_RfQResponse, C_RfQResponseLine, C_RfQResponseLineQty), the demo topic with two vendors, and the processes Create RfQ Response, Rank RfQ Responses, Create Purchase Order and Close RfQ',
    async up(tx) {
      await addRfqSeed(tx);
    },
  },
  {
    version: 262,
    name: 'landed costs: the tables C_LandedCost (759) and C_LandedCostAllocation (760) with the list of distributions, the schema defaults P_AverageCostVariance_Acct and P_CostAdjustment_Acct with the demo accounts, and the process Distribute Costs',
    async up(tx) {
      await addLandedCostSeed(tx);
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
  {
    version: 290,
    name: 'read replicas: the SysConfig rows of the lag bound and the read-your-writes window',
    async up(tx) {
      await addReadReplicaSettings(tx);
    },
  },
  {
    version: 211,
    name: 'moves in transit: the confirmation tables M_MovementConfirm (738) and M_MovementLineConfirm (737), and the demo document type Material Movement In Transit (MMM, IsInTransit)',
    async up(tx) {
      await addTransitSeed(tx);
    },
  },
  {
    version: 260,
    name: "costing: the key of M_Cost, the demo's material cost elements (Material, FIFO, Average PO, Average Invoice) and the opening cost of its stock",
    async up(tx) {
      await addCostingSeed(tx);
    },
  },
  {
    version: 266,
    name: "FIFO and LIFO costing: the index of the cost layers (M_CostQueue) by product, and the demo's LIFO material cost element",
    async up(tx) {
      await addCostQueueSeed(tx);
    },
  },
  {
    version: 273,
    name: 'windows of the documents added since the first fifteen: GL Journal Batch (132), GL Journal (200000), Bank Statement (194), Cash Journal (255), Inventory Move (170), Physical Inventory (168), Internal Use Inventory (341), Payment Selection (manual) (206), Dunning Run (231), Requisition (322), RfQ (324), the Landed Cost tab of Invoice (Vendor), their fields, access and menu entries',
    async up(tx) {
      await addErpWindows(tx);
    },
  },
];
