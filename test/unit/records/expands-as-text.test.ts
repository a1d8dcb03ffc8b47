import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expandsAsText } from '../../../src/records/read/expand.js';
import { parseExpand } from '../../../src/records/query/expand-parser.js';
import { fixtureDictionary } from './fixture-dictionary.js';

const dict = fixtureDictionary();
const partner = dict.byName.get('c_bpartner')!;
const members = new Set(['id', 'uid', 'model-name', 'Name', 'C_BP_Group_ID']);
const asText = (expand: string, names: ReadonlySet<string> = members) => expandsAsText(partner, parseExpand(expand), names);

describe('which $expand a read writes as text', () => {
  it('takes details, with their own options and an explicit link column', () => {
    assert.equal(asText('C_Order'), true);
    assert.equal(asText('C_Order($select=DocumentNo;$top=2)'), true);
    assert.equal(asText('C_Order.C_BPartner_ID'), true);
  });

  it('leaves to objects a master column, a nested $expand, a repeated item and a name the record already has', () => {
    assert.equal(asText('C_BP_Group_ID'), false, 'a master: the object puts it in the column’s place');
    assert.equal(asText('C_Order($expand=C_OrderLine)'), false, 'nested');
    assert.equal(asText('C_Order,C_Order'), false, 'repeated: the second replaces the first');
    assert.equal(asText('C_Order', new Set(['C_Order'])), false, 'a member of that name would be replaced in place');
    assert.equal(asText('C_Order,C_BP_Group_ID'), false, 'one item that cannot be text decides for all');
  });
});
