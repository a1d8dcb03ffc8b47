import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../src/paths.js';

interface SeedColumn {
  ColumnName: string;
  DefaultValue: string | null;
  IsMandatory: string;
}
interface SeedTable {
  TableName: string;
  columns: SeedColumn[];
}

const tables = JSON.parse(fs.readFileSync(path.join(projectRoot, 'seed', 'dictionary', 'tables.json'), 'utf8')) as SeedTable[];
const column = (table: string, name: string): SeedColumn => {
  const c = tables.find((t) => t.TableName === table)?.columns.find((x) => x.ColumnName === name);
  assert.ok(c, `${table}.${name} is in the dictionary`);
  return c;
};

describe('new-record values of mandatory Yes-No columns', () => {
  // The original's AD_Column rows give these four no DefaultValue (its generated X_ classes show no
  // default for them); the model class that its REST API instantiates for a new record sets them
  // true (MBPartner, MPayment, MAcctSchema, MStatus). So a record created without them is Y there.
  for (const [table, name] of [
    ['C_BPartner', 'IsCustomer'],
    ['C_Payment', 'IsReceipt'],
    ['C_AcctSchema', 'AutoPeriodControl'],
    ['R_Status', 'IsWebCanUpdate'],
  ] as const) {
    it(`${table}.${name} is Y on a new record, as the original's model class makes it`, () => {
      const c = column(table, name);
      assert.equal(c.IsMandatory, 'Y');
      assert.equal(c.DefaultValue, 'Y');
    });
  }

  it('keeps a DefaultValue the original declares (C_BPartner.IsPOTaxExempt N) and the X_ false elsewhere', () => {
    assert.equal(column('C_BPartner', 'IsPOTaxExempt').DefaultValue, 'N');
    assert.equal(column('C_BPartner', 'IsVendor').DefaultValue, 'N');
    assert.equal(column('C_Payment', 'IsPrepayment').DefaultValue, 'N');
  });
});
