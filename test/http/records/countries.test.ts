import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { readSeedData } from '../../../src/seed/dictionary-files.js';
import { migrate } from '../../../src/db/migrate.js';
import type { Db } from '../../../src/db/types.js';

const q = (s: string) => encodeURIComponent(s);
const seed = readSeedData();
const seedRows = (table: string) => seed.get(table) ?? [];

// The original's ids of places the demo company named by other ids before (Dictum's old id: the
// original's id); the original has other places at those old ids.
const DEMO_COUNTRIES: Record<number, number> = { 103: 333, 104: 106, 156: 122 };
const DEMO_REGIONS: Record<number, number> = { 103: 104, 104: 108, 105: 109, 106: 103, 107: 142, 108: 132, 109: 127, 110: 113, 111: 116, 120: 164, 121: 157 };
// The original's rows migration 77 first loaded at their id plus 9000, because a demo place had the id.
const DISPLACED_COUNTRIES = [103, 156];
const DISPLACED_REGIONS = [105, 106, 107, 110, 111, 120, 121];

/** What sits at each of these ids in the original (country code, or region name). */
const ORIGINAL_COUNTRIES: Record<number, string> = { 100: 'US', 101: 'DE', 102: 'FR', 103: 'BE', 106: 'ES', 109: 'CA', 122: 'AU', 156: 'CO', 216: 'JP', 333: 'GB' };
const ORIGINAL_REGIONS: Record<number, [string, number]> = {
  102: ['CT', 100], 103: ['CA', 100], 104: ['MA', 100], 105: ['ME', 100], 106: ['NH', 100], 107: ['RI', 100], 108: ['NY', 100],
  109: ['NJ', 100], 110: ['PA', 100], 111: ['VA', 100], 113: ['FL', 100], 116: ['WA', 100], 120: ['GA', 100], 121: ['ND', 100],
  127: ['IL', 100], 132: ['TX', 100], 142: ['OR', 100], 157: ['British Columbia', 109], 164: ['Ontario', 109],
};

const COUNTRY_REFERENCES = [['c_region', 'c_country_id'], ['c_location', 'c_country_id'], ['c_city', 'c_country_id'], ['c_tax', 'c_country_id'], ['c_tax', 'to_country_id']];
const REGION_REFERENCES = [['c_location', 'c_region_id'], ['c_city', 'c_region_id'], ['c_tax', 'c_region_id'], ['c_tax', 'to_region_id']];

/**
 * Gives places other ids, as an earlier database had them, with the seeded references to them:
 * `ids` maps each id now to the id before. Values go through negatives so that chains of ids
 * never meet on the way.
 */
async function renumber(db: Db, table: 'c_country' | 'c_region', ids: Record<number, number>): Promise<void> {
  const now = Object.keys(ids).map(Number);
  const before = now.map((id) => ids[id]!);
  const refs = table === 'c_country' ? COUNTRY_REFERENCES : REGION_REFERENCES;
  for (const [t, c] of [[table, `${table}_id`], ...refs] as [string, string][]) {
    await db.query(`UPDATE ${t} x SET ${c} = -m.b FROM unnest($1::bigint[], $2::bigint[]) AS m(a, b) WHERE x.${c} = m.a`, [now, before]);
    await db.query(`UPDATE ${t} SET ${c} = -${c} WHERE ${c} < 0`);
  }
}

/** The inverse of a map of ids. */
const inverse = (ids: Record<number, number>): Record<number, number> => Object.fromEntries(Object.entries(ids).map(([a, b]) => [b, Number(a)]));

/**
 * The places and every seeded or user-made row naming them, by id: equal on two databases when
 * each place and each address, city and tax has the same id and names the same places.
 */
async function placesAndReferences(db: Db): Promise<Record<string, unknown>> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT (SELECT json_agg(json_build_array(c_country_id, countrycode) ORDER BY c_country_id) FROM c_country) AS countries,
            (SELECT json_agg(json_build_array(c_region_id, c_country_id, name) ORDER BY c_region_id) FROM c_region) AS regions,
            (SELECT json_agg(json_build_array(c_location_id, c_country_id, c_region_id, regionname) ORDER BY c_location_id) FROM c_location) AS locations,
            (SELECT json_agg(json_build_array(c_city_id, c_country_id, c_region_id) ORDER BY c_city_id) FROM c_city) AS cities,
            (SELECT json_agg(json_build_array(c_tax_id, c_country_id, to_country_id, c_region_id, to_region_id) ORDER BY c_tax_id) FROM c_tax) AS taxes`,
  );
  return rows[0]!;
}

const countAt = async (db: Db, sql: string): Promise<number> => Number((await db.query<{ n: number }>(sql)).rows[0]!.n);

describe('countries and regions of the demo company', () => {
  const f = serverWithDemoRoles();
  const as = (token: string, method: string, path: string, body?: unknown) => f.server.request(method, path, { token, body });
  const rowCount = async (token: string, table: string, filter: string) => {
    const r = await as(token, 'GET', `/api/v1/models/${table}?$filter=${q(filter)}&$top=1`);
    assert.equal(r.status, 200, r.text);
    return r.body['row-count'] as number;
  };

  it('reads Taiwan (316) with its ISO codes, currency and formats', async () => {
    const r = await as(f.admin, 'GET', '/api/v1/models/c_country/316');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.Name, 'Taiwan');
    assert.equal(r.body.CountryCode, 'TW');
    assert.equal(r.body.ISOCountryCodeAlpha3, 'TWN');
    assert.equal(r.body.M49Code, '158');
    assert.equal(r.body.DisplaySequence, '@C@,  @P@');
    assert.equal(r.body.HasRegion, false);
    assert.deepEqual(r.body.C_Currency_ID, { propertyLabel: 'Currency', id: 289, identifier: 'TWD', 'model-name': 'c_currency' });
    const twd = await as(f.admin, 'GET', '/api/v1/models/c_currency/289');
    assert.equal(twd.status, 200);
    assert.equal(twd.body.Description, 'New Taiwan Dollar');
    const byCode = await as(f.admin, 'GET', `/api/v1/models/c_country?$filter=${q("CountryCode eq 'TW'")}&$select=Name`);
    assert.deepEqual(byCode.body.records.map((c: { id: number }) => c.id), [316]);
  });

  it('reads the United States regions: the 50 states and the District of Columbia', async () => {
    const r = await as(f.admin, 'GET', `/api/v1/models/c_region?$filter=${q('C_Country_ID eq 100')}&$select=Name,Description,IsDefault&$orderby=Name&$top=100`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['row-count'], 51);
    const names = r.body.records.map((x: { Name: string }) => x.Name);
    assert.equal(new Set(names).size, 51, 'each state once');
    for (const code of ['AK', 'AL', 'CA', 'CT', 'DC', 'HI', 'ME', 'NY', 'OR', 'TX', 'WY']) assert.ok(names.includes(code), code);
    const byId = new Map(r.body.records.map((x: { id: number; Description: string }) => [x.id, x.Description]));
    assert.equal(byId.get(118), 'Alaska', 'the original id of a state the demo did not have');
    assert.equal(byId.get(286), 'District of Columbia');
    assert.equal(byId.get(105), 'Maine', 'the original id of Maine');
    assert.equal(byId.get(103), 'California');
    assert.deepEqual(
      r.body.records.filter((x: { IsDefault: boolean }) => x.IsDefault).map((x: { id: number; Name: string }) => [x.id, x.Name]),
      [[142, 'OR']],
      'the original default state, at its id',
    );
  });

  it("answers the original's ids with the places the original gives them, to the least privileged roles", async () => {
    for (const token of [f.user, f.ws]) {
      for (const [id, code] of Object.entries(ORIGINAL_COUNTRIES)) {
        const r = await as(token, 'GET', `/api/v1/models/c_country/${id}?$select=CountryCode,Name`);
        assert.equal(r.status, 200, `country ${id}: ${r.text}`);
        assert.equal(r.body.CountryCode, code, `country ${id}`);
      }
      for (const [id, [name, country]] of Object.entries(ORIGINAL_REGIONS)) {
        const r = await as(token, 'GET', `/api/v1/models/c_region/${id}?$select=Name,C_Country_ID`);
        assert.equal(r.status, 200, `region ${id}: ${r.text}`);
        assert.deepEqual([r.body.Name, r.body.C_Country_ID.id], [name, country], `region ${id}`);
      }
    }
    const names = async (path: string) => (await as(f.user, 'GET', path)).body;
    assert.deepEqual(
      [(await names('/api/v1/models/c_country/103')).Name, (await names('/api/v1/models/c_country/333')).Name, (await names('/api/v1/models/c_country/122')).Name, (await names('/api/v1/models/c_country/156')).Name],
      ['Belgium', 'United Kingdom', 'Australia', 'Colombia'],
    );
    // Colombia's departments name their country by its own id; no place is left at id plus 9000, nor at 104.
    assert.equal(await rowCount(f.user, 'c_region', 'C_Country_ID eq 156'), 33);
    assert.equal(await rowCount(f.user, 'c_region', 'C_Country_ID eq 122'), 8, 'the Australian states');
    assert.equal(await rowCount(f.user, 'c_country', 'C_Country_ID ge 9000 and C_Country_ID lt 10000'), 0);
    assert.equal(await rowCount(f.user, 'c_region', 'C_Region_ID ge 9000 and C_Region_ID lt 10000'), 0);
    assert.equal((await as(f.user, 'GET', '/api/v1/models/c_country/104')).status, 404);
    assert.equal((await as(f.user, 'GET', '/api/v1/models/c_country/9103')).status, 404);
  });

  it('keeps the meaning of every demo address, city and tax, under the places\' new ids', async () => {
    const region = async (location: number) => {
      const r = await as(f.admin, 'GET', `/api/v1/models/c_location/${location}?$select=City,RegionName,C_Region_ID,C_Country_ID`);
      assert.equal(r.status, 200, r.text);
      return [r.body.City, r.body.C_Country_ID.id, r.body.C_Region_ID.id, r.body.C_Region_ID.identifier, r.body.RegionName];
    };
    assert.deepEqual(await region(114), ['Springfield', 100, 104, 'MA', 'MA']);
    assert.deepEqual(await region(127), ['Los Angeles', 100, 103, 'CA', 'CA']);
    assert.deepEqual(await region(128), ['Portland', 100, 142, 'OR', 'OR']);
    assert.deepEqual(await region(129), ['Newark', 100, 109, 'NJ', 'NJ']);
    assert.deepEqual(await region(130), ['Buffalo', 100, 108, 'NY', 'NY']);
    assert.deepEqual(await region(131), ['Houston', 100, 132, 'TX', 'TX']);
    assert.deepEqual(await region(126), ['Springfield', 100, 127, 'IL', 'IL']);
    const pst = await as(f.admin, 'GET', '/api/v1/models/c_tax/107?$select=C_Region_ID,To_Region_ID,C_Country_ID');
    assert.equal(pst.status, 200, pst.text);
    assert.deepEqual(
      [pst.body.C_Country_ID.identifier, pst.body.C_Region_ID.id, pst.body.C_Region_ID.identifier, pst.body.To_Region_ID.id],
      ['Canada', 164, 'Ontario', 164],
      'the Ontario sales tax names Ontario',
    );
    const { rows } = await f.server.services.db.query<{ kind: string; id: number }>(
      `SELECT 'location' AS kind, l.c_location_id::int AS id FROM c_location l LEFT JOIN c_region r ON r.c_region_id = l.c_region_id
        WHERE l.c_region_id IS NOT NULL AND (r.c_region_id IS NULL OR r.c_country_id <> l.c_country_id OR r.name <> l.regionname)
       UNION ALL
       SELECT 'city', c.c_city_id::int FROM c_city c LEFT JOIN c_region r ON r.c_region_id = c.c_region_id
        WHERE c.c_region_id IS NOT NULL AND (r.c_region_id IS NULL OR r.c_country_id <> c.c_country_id)
       UNION ALL
       SELECT 'tax', t.c_tax_id::int FROM c_tax t LEFT JOIN c_region r ON r.c_region_id = t.c_region_id
        WHERE t.c_region_id IS NOT NULL AND (r.c_region_id IS NULL OR r.c_country_id <> t.c_country_id)
       UNION ALL
       SELECT 'country of ' || x.t, x.id::int FROM (
         SELECT 'location' AS t, c_location_id AS id, c_country_id FROM c_location UNION ALL SELECT 'city', c_city_id, c_country_id FROM c_city
         UNION ALL SELECT 'tax', c_tax_id, c_country_id FROM c_tax) x
        WHERE x.c_country_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM c_country c WHERE c.c_country_id = x.c_country_id)`,
    );
    assert.deepEqual(rows, [], 'seeded addresses, cities and taxes name existing countries and their own regions');
  });

  it('answers as many countries, regions and currencies as the seed has, for each country', async () => {
    const countries = seedRows('C_Country');
    const active = countries.filter((c) => c.IsActive !== 'N');
    assert.ok(active.length >= 245, 'the full ISO 3166 list');
    assert.equal(await rowCount(f.admin, 'c_country', 'IsActive eq true'), active.length);
    assert.equal(await rowCount(f.admin, 'c_country', 'IsActive eq false'), countries.length - active.length);
    assert.equal(await rowCount(f.admin, 'c_region', 'C_Region_ID gt 0'), seedRows('C_Region').length);
    const currencies = seedRows('C_Currency');
    assert.equal(await rowCount(f.admin, 'c_currency', 'IsActive eq true'), currencies.filter((c) => c.IsActive !== 'N').length);
    assert.equal(await rowCount(f.admin, 'c_currency', 'IsActive eq false'), currencies.filter((c) => c.IsActive === 'N').length);
    const perCountry = new Map<number, number>();
    for (const r of seedRows('C_Region')) perCountry.set(Number(r.C_Country_ID), (perCountry.get(Number(r.C_Country_ID)) ?? 0) + 1);
    assert.ok(perCountry.size >= 12, 'regions of several countries');
    for (const [country, n] of perCountry) {
      assert.equal(await rowCount(f.admin, 'c_region', `C_Country_ID eq ${country}`), n, `regions of country ${country}`);
      const c = countries.find((x) => Number(x.C_Country_ID) === country);
      assert.equal(c?.HasRegion, 'Y', `country ${country} says it has regions`);
    }
    // Every currency a country names is there.
    const currencyIds = new Set(currencies.map((c) => Number(c.C_Currency_ID)));
    assert.deepEqual(countries.filter((c) => c.C_Currency_ID != null && !currencyIds.has(Number(c.C_Currency_ID))), []);
  });

  it('lets the least privileged roles read countries and regions, and keeps them read-only for a client', async () => {
    for (const token of [f.user, f.ws]) {
      const taiwan = await as(token, 'GET', '/api/v1/models/c_country/316?$select=Name');
      assert.equal(taiwan.status, 200, taiwan.text);
      assert.equal(taiwan.body.Name, 'Taiwan');
      assert.equal(await rowCount(token, 'c_region', 'C_Country_ID eq 100'), 51);
    }
    const put = await as(f.admin, 'PUT', '/api/v1/models/c_country/316', { Description: 'changed' });
    assert.equal(put.status, 403);
    assert.equal((await as(f.admin, 'DELETE', '/api/v1/models/c_region/118')).status, 403);
    assert.equal((await as(f.admin, 'GET', '/api/v1/models/c_country/4242')).status, 404);
  });

  it('creates a business partner location in a newly loaded country with one of its regions', async () => {
    const r = await as(f.admin, 'POST', '/api/v1/models/c_bpartner_location', {
      C_BPartner_ID: 118,
      Name: 'São Paulo office',
      C_Location_ID: { id: 0, address1: 'Avenida Paulista 1000', postal: '01310-100', city: 'São Paulo', C_Country_ID: 139, C_Region_ID: 465 },
    });
    assert.equal(r.status, 201, r.text);
    const address = await as(f.admin, 'GET', `/api/v1/models/c_location/${r.body.C_Location_ID.id}`);
    assert.equal(address.status, 200);
    assert.deepEqual([address.body.C_Country_ID.id, address.body.C_Country_ID.identifier], [139, 'Brazil']);
    assert.deepEqual([address.body.C_Region_ID.id, address.body.C_Region_ID.identifier], [465, 'SP']);
    // Countries by the original's ids: Belgium 103, the United Kingdom 333.
    const belgium = await as(f.admin, 'POST', '/api/v1/models/c_location', { address1: 'Rue de la Loi 16', postal: '1000', city: 'Brussels', C_Country_ID: 103 });
    assert.equal(belgium.status, 201, belgium.text);
    assert.equal(belgium.body.C_Country_ID.identifier, 'Belgium');
    const london = await as(f.user, 'POST', '/api/v1/models/c_location', { address1: '10 Downing Street', postal: 'SW1A 2AA', city: 'London', C_Country_ID: 333 });
    assert.equal(london.status, 201, london.text);
    assert.equal(london.body.C_Country_ID.identifier, 'United Kingdom');
    const unknown = await as(f.admin, 'POST', '/api/v1/models/c_bpartner_location', { C_BPartner_ID: 118, Name: 'Nowhere', C_Location_ID: { id: 0, address1: 'x', city: 'y', C_Country_ID: 4242 } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /C_Country_ID/);
    const badRegion = await as(f.admin, 'POST', '/api/v1/models/c_location', { address1: 'x', city: 'y', C_Country_ID: 139, C_Region_ID: 4242 });
    assert.equal(badRegion.status, 400);
    assert.match(badRegion.body.detail, /C_Region_ID/);
  });

  it("still answers the upstream collection's country and region requests", async () => {
    // POST models/c_tax names Canada by its identifier; among the full list it is still one country.
    const tax = await as(f.admin, 'POST', '/api/v1/models/c_tax', {
      AD_Org_ID: { id: 0, tableName: 'AD_Org' },
      name: 'MyGST',
      Parent_Tax_ID: { identifier: 'GST/PST', tableName: 'C_Tax' },
      C_Country_ID: { identifier: 'Canada', tableName: 'C_Country' },
      To_Country_ID: { identifier: 'Canada', tableName: 'C_Country' },
      C_TaxCategory_ID: { identifier: 'Standard', tableName: 'C_TaxCategory' },
      validFrom: '2001-01-01',
      rate: '7.0',
      sOPOType: { id: 'B' },
      tableName: 'C_Tax',
    });
    assert.equal(tax.status, 201, tax.text);
    assert.equal(tax.body.C_Country_ID.id, 109);
    // PUT models/c_bpartner_location/117 (location converter) with C_Country_ID 100 and C_Region_ID 102.
    const put = await as(f.admin, 'PUT', '/api/v1/models/c_bpartner_location/117', {
      Name: 'Monroe',
      C_Location_ID: { id: 125, address1: 'address 1', postal: 'postal', C_Country_ID: 100, C_Region_ID: 102, RegionName: 'RN', C_City_ID: 0, city: 'Near Village', IsActive: true },
    });
    assert.equal(put.status, 200, put.text);
    const address = await as(f.admin, 'GET', '/api/v1/models/c_location/125');
    assert.deepEqual([address.body.C_Country_ID.identifier, address.body.C_Region_ID.id, address.body.C_Region_ID.identifier], ['United States', 102, 'CT']);
  });
});

describe('migration 77 (the full country list)', () => {
  const f = serverWithDemoRoles();

  it('changes nothing on a database that has the full lists already', async () => {
    const db = f.server.services.db;
    const snapshot = async () =>
      (
        await db.query<{ s: string }>(
          `SELECT (SELECT md5(string_agg(c::text, '|' ORDER BY c.c_country_id)) FROM c_country c)
               || (SELECT md5(string_agg(r::text, '|' ORDER BY r.c_region_id)) FROM c_region r)
               || (SELECT md5(string_agg(m::text, '|' ORDER BY m.c_currency_id)) FROM c_currency m) AS s`,
        )
      ).rows[0]!.s;
    const before = await snapshot();
    await db.exec('DELETE FROM dictum.migration WHERE version = 77');
    assert.deepEqual(await migrate(db), [77]);
    assert.equal(await snapshot(), before);
  });

  it('brings the countries, regions and currencies to a database built with the first eight countries, at the original\'s ids', async () => {
    const db = f.server.services.db;
    const current = await placesAndReferences(db);
    // A database as it was before: eight countries, twelve regions, six currencies, under the ids
    // and with the values of the first seed; Japan edited by an administrator since, and Taiwan
    // and its dollar entered by hand.
    await db.exec(`DELETE FROM c_region WHERE c_region_id NOT IN (102, ${Object.values(DEMO_REGIONS).join(', ')});
      DELETE FROM c_country WHERE c_country_id NOT IN (100, 101, 102, 109, 216, ${Object.values(DEMO_COUNTRIES).join(', ')});
      DELETE FROM c_currency WHERE c_currency_id NOT IN (100, 102, 113, 114, 116, 120)`);
    await renumber(db, 'c_country', inverse(DEMO_COUNTRIES));
    await renumber(db, 'c_region', inverse(DEMO_REGIONS));
    await db.exec(`UPDATE c_region SET isdefault = CASE WHEN c_region_id = 102 THEN 'Y' ELSE 'N' END;
      UPDATE c_region SET name = 'ON' WHERE c_region_id = 120;
      UPDATE c_country SET hasregion = 'N', regionname = NULL, description = 'Germany', displaysequence = '@P@ @C@', displaysequencelocal = NULL, capturesequence = NULL WHERE c_country_id = 101;
      UPDATE c_country SET hasregion = 'N', ad_language = 'en_US', updated = created + interval '1 day' WHERE c_country_id = 216;
      INSERT INTO c_currency (c_currency_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, iso_code, cursymbol, description, stdprecision, costingprecision, iseuro, isemumember, roundofffactor)
        VALUES (1000500, 0, 0, 'Y', now(), 100, now(), 100, 'TWD', 'NT$', 'Taiwan dollar', 2, 4, 'N', 'N', 1);
      INSERT INTO c_country (c_country_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, countrycode, displaysequence, hasregion, haspostal_add, isaddresslinesreverse, isaddresslineslocalreverse, c_currency_id)
        VALUES (1000501, 0, 0, 'Y', now(), 100, now(), 100, 'Taiwan (ROC)', 'TW', '@C@ @P@', 'N', 'N', 'N', 'N', 1000500);
      DELETE FROM dictum.migration WHERE version = 77`);
    assert.equal(await countAt(db, `SELECT count(*) AS n FROM c_country WHERE c_country_id IN (103, 104, 156) AND countrycode IN ('GB', 'ES', 'AU')`), 3, 'the first ids');
    assert.deepEqual(await migrate(db), [77]);
    const countries = seedRows('C_Country');
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_country'), countries.length, 'the seed list, with Taiwan kept as entered');
    assert.equal(await countAt(db, `SELECT count(*) AS n FROM c_country WHERE countrycode = 'TW'`), 1);
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_country WHERE c_country_id = 316'), 0);
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_currency'), seedRows('C_Currency').length);
    assert.equal(await countAt(db, `SELECT count(*) AS n FROM c_currency WHERE iso_code = 'TWD'`), 1);
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_region'), seedRows('C_Region').length);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT (SELECT hasregion || regionname || displaysequence FROM c_country WHERE c_country_id = 101) AS germany,
              (SELECT created = updated FROM c_country WHERE c_country_id = 101) AS seeded,
              (SELECT hasregion || ad_language FROM c_country WHERE c_country_id = 216) AS japan,
              (SELECT count(*)::int FROM c_region WHERE c_country_id = 101) AS bundeslaender,
              (SELECT string_agg(name, ',' ORDER BY c_region_id) FROM c_region WHERE c_region_id IN (102, 142, 164)) AS names,
              (SELECT string_agg(c_region_id::text, ',' ORDER BY c_region_id) FROM c_region WHERE isdefault = 'Y' AND c_country_id = 100) AS defaults,
              (SELECT c_currency_id::int FROM c_country WHERE c_country_id = 156) AS peso`,
    );
    assert.deepEqual(rows[0], {
      germany: 'YBundeslandD-@P@ @C@',
      seeded: true,
      japan: 'Nen_US',
      bundeslaender: 16,
      names: 'CT,OR,Ontario',
      defaults: '142',
      peso: 230,
    });
    // Every place and every address, city and tax as on a database built from the seed (Taiwan aside).
    const after = await placesAndReferences(db);
    const withoutTaiwan = (list: unknown) => (list as [number, string][]).filter(([, code]) => code !== 'TW');
    assert.deepEqual(withoutTaiwan(after.countries), withoutTaiwan(current.countries));
    assert.deepEqual({ ...after, countries: null }, { ...current, countries: null });
    const taiwan = await f.server.request('GET', `/api/v1/models/c_country?$filter=${q("CountryCode eq 'TW'")}&$select=Name,C_Currency_ID`, { token: f.admin });
    assert.deepEqual(taiwan.body.records.map((c: { id: number; C_Currency_ID: { id: number } }) => [c.id, c.C_Currency_ID.id]), [[1000501, 1000500]]);
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});

describe("migration 78 (countries and regions at the original's ids)", () => {
  const f = serverWithDemoRoles();
  const snapshot = async (db: Db) =>
    (
      await db.query<{ s: string }>(
        `SELECT concat_ws('|', (SELECT md5(string_agg(c::text, '|' ORDER BY c.c_country_id)) FROM c_country c),
                (SELECT md5(string_agg(r::text, '|' ORDER BY r.c_region_id)) FROM c_region r),
                (SELECT md5(string_agg(l::text, '|' ORDER BY l.c_location_id)) FROM c_location l),
                (SELECT md5(string_agg(y::text, '|' ORDER BY y.c_city_id)) FROM c_city y),
                (SELECT md5(string_agg(t::text, '|' ORDER BY t.c_tax_id)) FROM c_tax t)) AS s`,
      )
    ).rows[0]!.s;

  it('changes nothing on a database built from the current seed', async () => {
    const db = f.server.services.db;
    const before = await snapshot(db);
    await db.exec('DELETE FROM dictum.migration WHERE version = 78');
    assert.deepEqual(await migrate(db), [78]);
    assert.equal(await snapshot(db), before);
  });

  it('moves the demo places of a database migration 77 left with the first ids, with every reference to them, and leaves no row at id plus 9000', async () => {
    const db = f.server.services.db;
    // Addresses a user made: in the United Kingdom, in Belgium, in California and in Ontario.
    const location = async (body: Record<string, unknown>) => {
      const r = await f.server.request('POST', '/api/v1/models/c_location', { token: f.admin, body: { address1: '1 Test Street', city: 'Somewhere', ...body } });
      assert.equal(r.status, 201, r.text);
      return r.body.id as number;
    };
    const uk = await location({ C_Country_ID: 333 });
    const belgium = await location({ C_Country_ID: 103 });
    const california = await location({ C_Country_ID: 100, C_Region_ID: 103 });
    const ontario = await location({ C_Country_ID: 109, C_Region_ID: 164 });
    // A city in Texas, a change log entry of the United Kingdom, and a country (with a region) an administrator made.
    await db.exec(`INSERT INTO c_city (c_city_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, c_country_id, c_region_id)
        VALUES (1000700, 11, 0, 'Y', now(), 100, now(), 100, 'Austin', 100, 132);
      INSERT INTO ad_changelog (ad_changelog_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ad_table_id, record_id, newvalue)
        VALUES (1000701, 0, 0, 'Y', now(), 100, now(), 100, 170, 333, 'United Kingdom');
      INSERT INTO c_country (c_country_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, countrycode, displaysequence, hasregion, haspostal_add, isaddresslinesreverse, isaddresslineslocalreverse)
        VALUES (1000702, 0, 0, 'Y', now(), 100, now(), 100, 'Kosovo', 'XK', '@P@ @C@', 'Y', 'N', 'N', 'N');
      INSERT INTO c_region (c_region_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, c_country_id, isdefault)
        VALUES (1000703, 0, 0, 'Y', now(), 100, now(), 100, 'Prishtina', 1000702, 'N')`);
    const current = await placesAndReferences(db);
    const changeLog = async () => countAt(db, 'SELECT record_id AS n FROM ad_changelog WHERE ad_changelog_id = 1000701');

    // The database as migration 77 left it: the demo places at their first ids, the original's
    // places those ids displaced at id plus 9000, and every row naming them by those ids.
    const displaced = (ids: number[]) => Object.fromEntries(ids.map((id) => [id, id + 9000]));
    await renumber(db, 'c_country', { ...displaced(DISPLACED_COUNTRIES), ...inverse(DEMO_COUNTRIES) });
    await renumber(db, 'c_region', { ...displaced(DISPLACED_REGIONS), ...inverse(DEMO_REGIONS) });
    await db.exec(`UPDATE ad_changelog SET record_id = 103 WHERE ad_changelog_id = 1000701; DELETE FROM dictum.migration WHERE version = 78`);
    const before = await db.query<{ id: number; code: string }>(`SELECT c_country_id::int AS id, countrycode AS code FROM c_country WHERE c_country_id IN (103, 104, 156, 9103, 9156) ORDER BY 1`);
    assert.deepEqual(before.rows.map((r) => [r.id, r.code]), [[103, 'GB'], [104, 'ES'], [156, 'AU'], [9103, 'BE'], [9156, 'CO']]);
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_region WHERE c_region_id BETWEEN 9000 AND 9999'), DISPLACED_REGIONS.length);
    assert.equal(await countAt(db, `SELECT c_region_id AS n FROM c_location WHERE c_location_id = ${california}`), 106, 'California had the id 106');
    const read = async (id: number) => {
      const r = await f.server.request('GET', `/api/v1/models/c_location/${id}?$select=C_Country_ID,C_Region_ID`, { token: f.user });
      assert.equal(r.status, 200, r.text);
      return [r.body.C_Country_ID.id, r.body.C_Country_ID.identifier, r.body.C_Region_ID?.id ?? null, r.body.C_Region_ID?.identifier ?? null];
    };
    // The running server reads that database as it is (its kept identifiers dropped after the SQL above).
    f.server.services.caches.resetLocal('c_country');
    f.server.services.caches.resetLocal('c_region');
    assert.deepEqual(await read(uk), [103, 'United Kingdom', null, null]);
    assert.deepEqual(await read(california), [100, 'United States', 106, 'CA']);

    assert.deepEqual(await migrate(db), [78]);
    assert.deepEqual(await placesAndReferences(db), current, 'each place, address, city and tax as on a database built from the seed');
    assert.equal(await changeLog(), 333, 'the change log entry names the United Kingdom by its new id');
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_country WHERE c_country_id BETWEEN 9000 AND 9999'), 0);
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_region WHERE c_region_id BETWEEN 9000 AND 9999'), 0);
    assert.equal(await countAt(db, 'SELECT count(*) AS n FROM c_country'), seedRows('C_Country').length + 1, 'the seed list and the country made by hand');

    // Over HTTP: the migration told the running server to drop the identifiers it kept under the old ids.
    assert.deepEqual(await read(uk), [333, 'United Kingdom', null, null]);
    assert.deepEqual(await read(belgium), [103, 'Belgium', null, null]);
    assert.deepEqual(await read(california), [100, 'United States', 103, 'CA']);
    assert.deepEqual(await read(ontario), [109, 'Canada', 164, 'Ontario']);
    const maine = await f.server.request('GET', '/api/v1/models/c_region/105?$select=Name,C_Country_ID', { token: f.ws });
    assert.deepEqual([maine.status, maine.body.Name, maine.body.C_Country_ID?.id], [200, 'ME', 100]);
    assert.equal((await f.server.request('GET', '/api/v1/models/c_country/9103', { token: f.ws })).status, 404);
    assert.deepEqual(await migrate(db), [], 'applied once');
  });

  it('folds a second row of a place into the one at its id, and never puts a place where another one stays', async () => {
    const db = f.server.services.db;
    // Belgium twice (at 103 and at 9103, with an address); the demo's Oregon still at 107 while 142
    // holds another place (a region of Germany), so neither Oregon nor Rhode Island (at 9107) has a
    // free id to go to.
    await db.exec(`INSERT INTO c_country (c_country_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, countrycode, displaysequence, hasregion, haspostal_add, isaddresslinesreverse, isaddresslineslocalreverse)
        VALUES (9103, 0, 0, 'Y', now(), 100, now(), 100, 'Belgium', 'BE', '@P@ @C@', 'N', 'N', 'N', 'N');
      INSERT INTO c_location (c_location_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, address1, city, c_country_id, isvalid)
        VALUES (1000710, 11, 0, 'Y', now(), 100, now(), 100, 'Grand-Place 1', 'Brussels', 9103, 'N');
      UPDATE c_region SET c_region_id = 9107 WHERE c_region_id = 107;
      UPDATE c_region SET c_region_id = 107 WHERE c_region_id = 142;
      INSERT INTO c_region (c_region_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, description, c_country_id, isdefault)
        VALUES (142, 0, 0, 'Y', now(), 100, now(), 100, 'OR', 'Oregon (made by hand)', 101, 'N');
      UPDATE c_location SET c_region_id = 107 WHERE c_region_id = 142;
      DELETE FROM dictum.migration WHERE version = 78`);
    const oregon = await countAt(db, 'SELECT count(*) AS n FROM c_location WHERE c_region_id = 107');
    assert.ok(oregon >= 2, 'the demo addresses in Oregon');
    assert.deepEqual(await migrate(db), [78]);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT (SELECT count(*)::int FROM c_country WHERE c_country_id = 9103) AS second_belgium,
              (SELECT c_country_id::int FROM c_location WHERE c_location_id = 1000710) AS brussels,
              (SELECT string_agg(c_region_id || ':' || name || ':' || c_country_id, ',' ORDER BY c_region_id) FROM c_region WHERE c_region_id IN (107, 142, 9107)) AS regions,
              (SELECT count(*)::int FROM c_location WHERE c_region_id = 107) AS oregon`,
    );
    assert.deepEqual(rows[0], { second_belgium: 0, brussels: 103, regions: '107:OR:100,142:OR:101,9107:RI:100', oregon });
  });
});
