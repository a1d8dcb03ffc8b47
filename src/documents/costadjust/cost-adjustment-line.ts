import type { ModelEvent, Row } from '../../events/model-events.js';
import { readAccountSchema } from '../accounting/facts.js';
import { idOf, invalid, isEmptyValue } from '../row-values.js';
import { lineUnitAndQuantity } from '../stock/stock-document-rules.js';
import { ADJUSTABLE_METHODS, productCost } from './adjusted-costs.js';

const METHOD_NAMES: Record<string, string> = { S: 'Standard Costing', A: 'Average PO', I: 'Average Invoice', F: 'Fifo', L: 'Lifo', p: 'Last PO Price', i: 'Last Invoice', U: 'User Defined' };
const methodName = (m: string): string => METHOD_NAMES[m] ?? m;

/**
 * A cost adjustment line (M_InventoryLine of a count of sub type CA): a product with a new cost
 * price and no quantity. Whenever its product changes, CurrentCostPrice takes the product's
 * current cost (its M_Cost price under its costing method); a product without a cost row, or
 * costed by a method whose cost an adjustment does not set (FIFO, LIFO, last prices), or by
 * another method than the document's CostingMethod when that is set, is refused. NewCostPrice
 * is required and greater than 0 (a cost of 0 is one not set yet, which the next stock document
 * would seed from the price list).
 */
export async function costAdjustmentLineBeforeSave(e: ModelEvent, header: Row): Promise<void> {
  const row = e.row;
  if (!isEmptyValue(row.qtyinternaluse) && Number(row.qtyinternaluse) !== 0) throw invalid('A cost adjustment line moves no stock (column QtyInternalUse)');
  if (e.given?.has('qtycount') && Number(row.qtycount) !== 0) throw invalid('A cost adjustment line moves no stock (column QtyCount)');
  row.qtybook = 0;
  row.qtycount = 0;
  row.qtyentered = 0;
  row.qtyinternaluse = null;
  const productId = idOf(row.m_product_id);
  if (productId === null) throw invalid('A cost adjustment line needs a product (column M_Product_ID)');
  if (e.type === 'before-new' || e.changed.has('m_product_id')) {
    const clientId = Number(row.ad_client_id ?? e.auth.clientId);
    const schema = await readAccountSchema(e.tx, clientId);
    if (!schema) throw invalid('The client has no accounting schema to take the cost from');
    const cost = await productCost(e.tx, productId, schema.schemaId, Number(row.ad_org_id ?? header.ad_org_id ?? 0), idOf(row.m_attributesetinstance_id) ?? 0);
    const method = cost.method ?? '';
    if (!ADJUSTABLE_METHODS.includes(method)) {
      throw invalid(`Product ${productId} is costed by ${methodName(method)}: a cost adjustment sets standard or average costs (column M_Product_ID)`);
    }
    const wanted = isEmptyValue(header.costingmethod) ? null : String(header.costingmethod);
    if (wanted !== null && wanted !== method) {
      throw invalid(`Product ${productId} is costed by ${methodName(method)}, the cost adjustment adjusts ${methodName(wanted)} (column M_Product_ID)`);
    }
    if (cost.price === null) throw invalid(`Product ${productId} has no cost to adjust yet: it gets one when it is first received or counted (column M_Product_ID)`);
    row.currentcostprice = cost.price;
  }
  // A cost of 0 is a cost not set yet: the next receipt or shipment would take the product's list price instead.
  if (isEmptyValue(row.newcostprice) || !(Number(row.newcostprice) > 0)) throw invalid('A cost adjustment line needs a new cost price greater than 0 (column NewCostPrice)');
  await lineUnitAndQuantity(e, 'qtycount');
  row.qtycount = 0;
}
