import type { Tx } from '../db/types.js';
import { readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';

const DEMO_CLIENT = 11;

/** The demo's lot and serial number controls, attribute sets and the products that use them. */
export const DEMO_LOTS = {
  lotControl: 1117000,
  serialControl: 1117001,
  lotSet: 1117010,
  serialSet: 1117011,
  lotProduct: 1117020,
  serialProduct: 1117021,
} as const;

/** The sales (104) and purchase (105) price list versions of the demo, each product's list, standard and limit price in them. */
const PRICES: [id: number, version: number, product: number, price: number][] = [
  [1117030, 104, DEMO_LOTS.lotProduct, 18],
  [1117031, 105, DEMO_LOTS.lotProduct, 9],
  [1117032, 104, DEMO_LOTS.serialProduct, 380],
  [1117033, 105, DEMO_LOTS.serialProduct, 240],
];

const product = (id: number, value: string, name: string, category: number, setId: number) => ({
  M_Product_ID: id, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, Value: value, Name: name, ProductType: 'I', C_UOM_ID: 100, M_Product_Category_ID: category,
  C_TaxCategory_ID: 107, IsStocked: 'Y', IsSold: 'Y', IsPurchased: 'Y', IsBOM: 'N', IsSummary: 'N', IsDropShip: 'N', IsInvoicePrintDetails: 'N',
  IsPickListPrintDetails: 'N', IsWebStoreFeatured: 'N', IsSelfService: 'Y', IsVerified: 'N', IsExcludeAutoDelivery: 'N', Discontinued: 'N',
  M_AttributeSet_ID: setId, M_AttributeSetInstance_ID: 0, LowLevel: 0, SKU: `GW-${id}`, SalesRep_ID: 103, M_Locator_ID: 101,
});

/**
 * Lots and serial numbers in the demo: a lot control (LOT-100, LOT-101, ...) and a serial number
 * control (SN5000, ...); the attribute set "Lot Tracked" (lot, always mandatory: no receipt,
 * shipment, move or count without an instance) and "Serial Numbered" (serial number, mandatory
 * when shipping); and a product of each, priced in the demo's sales and purchase price lists.
 */
export async function addLotsSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const insert = (table: string, rows: Record<string, unknown>[]) => insertSeedRows(tx, seedTable(dict, table), rows, now, { skipExisting: true });
  const control = { AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, IncrementNo: 1 };
  await insert('M_LotCtl', [{ ...control, M_LotCtl_ID: DEMO_LOTS.lotControl, Name: 'Lot numbers', Description: 'Numbers the lots of lot-tracked products', StartNo: 100, CurrentNext: 100, Prefix: 'LOT-' }]);
  await insert('M_SerNoCtl', [{ ...control, M_SerNoCtl_ID: DEMO_LOTS.serialControl, Name: 'Serial numbers', Description: 'Numbers the units of serial-numbered products', StartNo: 5000, CurrentNext: 5000, Prefix: 'SN' }]);
  const set = { AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, IsInstanceAttribute: 'Y', IsGuaranteeDate: 'N', IsGuaranteeDateMandatory: 'N', M_AttributeSet_Type: 'MMS', EntityType: 'U' };
  await insert('M_AttributeSet', [
    { ...set, M_AttributeSet_ID: DEMO_LOTS.lotSet, Name: 'Lot Tracked', Description: 'Every movement names its lot', IsLot: 'Y', IsLotMandatory: 'Y', M_LotCtl_ID: DEMO_LOTS.lotControl, IsSerNo: 'N', IsSerNoMandatory: 'N', MandatoryType: 'Y' },
    { ...set, M_AttributeSet_ID: DEMO_LOTS.serialSet, Name: 'Serial Numbered', Description: 'Every unit shipped names its serial number', IsLot: 'N', IsLotMandatory: 'N', IsSerNo: 'Y', IsSerNoMandatory: 'Y', M_SerNoCtl_ID: DEMO_LOTS.serialControl, MandatoryType: 'S' },
  ]);
  await insert('M_Product', [
    product(DEMO_LOTS.lotProduct, 'LotSeed', 'Grass Seed Premium (lot)', 105, DEMO_LOTS.lotSet),
    product(DEMO_LOTS.serialProduct, 'SerialMower', 'Lawn Mower (serial number)', 108, DEMO_LOTS.serialSet),
  ]);
  await insert('M_ProductPrice', PRICES.map(([id, version, productId, price]) => ({
    M_ProductPrice_ID: id, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, M_PriceList_Version_ID: version, M_Product_ID: productId, PriceList: price, PriceStd: price, PriceLimit: price,
  })));
}
