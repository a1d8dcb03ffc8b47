import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { readSeedData } from '../../../src/seed/dictionary-files.js';
import { migrate } from '../../../src/db/migrate.js';

const q = (s: string) => encodeURIComponent(s);
const seed = readSeedData();
const seedRows = (table: string) => seed.get(table) ?? [];

// The ids the demo company used before the full lists, with what they mean: they keep it.
const DEMO_COUNTRIES: Record<number, string> = { 100: 'US', 101: 'DE', 102: 'FR', 103: 'GB', 104: 'ES', 109: 'CA', 156: 'AU', 216: 'JP' };
const DEMO_REGIONS: Record<number, string> = {
  102: 'CT', 103: 'MA', 104: 'NY', 105: 'NJ', 106: 'CA', 107: 'OR', 108: 'TX', 109: 'IL', 110: 'FL', 111: 'WA', 120: 'Ontario', 121: 'British Columbia',
};

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
    assert.equal(byId.get(9105), 'Maine', 'the original id (105) of Maine is the demo company\'s New Jersey');
    assert.deepEqual(r.body.records.filter((x: { IsDefault: boolean }) => x.IsDefault).map((x: { Name: string }) => x.Name), ['OR'], 'the original default state');
  });

  it('keeps the meaning of the ids the demo company used before, and every address still names its own country and region', async () => {
    for (const [id, code] of Object.entries(DEMO_COUNTRIES)) {
      const r = await as(f.admin, 'GET', `/api/v1/models/c_country/${id}?$select=CountryCode`);
      assert.equal(r.body.CountryCode, code, `country ${id}`);
    }
    for (const [id, name] of Object.entries(DEMO_REGIONS)) {
      const r = await as(f.admin, 'GET', `/api/v1/models/c_region/${id}?$select=Name`);
      assert.equal(r.body.Name, name, `region ${id}`);
    }
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
    // A country whose id the demo's United Kingdom kept: the original's Belgium is 9103.
    const belgium = await as(f.admin, 'POST', '/api/v1/models/c_location', { address1: 'Rue de la Loi 16', postal: '1000', city: 'Brussels', C_Country_ID: 9103 });
    assert.equal(belgium.status, 201, belgium.text);
    assert.equal(belgium.body.C_Country_ID.identifier, 'Belgium');
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

  it('brings the countries, regions and currencies to a database built with the first eight countries', async () => {
    const db = f.server.services.db;
    // A database as it was before: eight countries, twelve regions, six currencies, with the first
    // seed's values; Japan edited by an administrator since, and Taiwan and its dollar entered by hand.
    await db.exec(`DELETE FROM c_region WHERE c_region_id NOT IN (${Object.keys(DEMO_REGIONS).join(', ')});
      DELETE FROM c_country WHERE c_country_id NOT IN (${Object.keys(DEMO_COUNTRIES).join(', ')});
      DELETE FROM c_currency WHERE c_currency_id NOT IN (100, 102, 113, 114, 116, 120);
      UPDATE c_region SET isdefault = CASE WHEN c_region_id = 102 THEN 'Y' ELSE 'N' END;
      UPDATE c_region SET name = 'ON' WHERE c_region_id = 120;
      UPDATE c_country SET hasregion = 'N', regionname = NULL, description = 'Germany', displaysequence = '@P@ @C@', displaysequencelocal = NULL, capturesequence = NULL WHERE c_country_id = 101;
      UPDATE c_country SET hasregion = 'N', ad_language = 'en_US', updated = created + interval '1 day' WHERE c_country_id = 216;
      INSERT INTO c_currency (c_currency_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, iso_code, cursymbol, description, stdprecision, costingprecision, iseuro, isemumember, roundofffactor)
        VALUES (1000500, 0, 0, 'Y', now(), 100, now(), 100, 'TWD', 'NT$', 'Taiwan dollar', 2, 4, 'N', 'N', 1);
      INSERT INTO c_country (c_country_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, countrycode, displaysequence, hasregion, haspostal_add, isaddresslinesreverse, isaddresslineslocalreverse, c_currency_id)
        VALUES (1000501, 0, 0, 'Y', now(), 100, now(), 100, 'Taiwan (ROC)', 'TW', '@C@ @P@', 'N', 'N', 'N', 'N', 1000500);
      DELETE FROM dictum.migration WHERE version = 77`);
    assert.deepEqual(await migrate(db), [77]);
    const count = async (sql: string) => Number((await db.query<{ n: number }>(sql)).rows[0]!.n);
    const countries = seedRows('C_Country');
    assert.equal(await count('SELECT count(*) AS n FROM c_country'), countries.length, 'the seed list, with Taiwan kept as entered');
    assert.equal(await count(`SELECT count(*) AS n FROM c_country WHERE countrycode = 'TW'`), 1);
    assert.equal(await count('SELECT count(*) AS n FROM c_country WHERE c_country_id = 316'), 0);
    assert.equal(await count('SELECT count(*) AS n FROM c_currency'), seedRows('C_Currency').length);
    assert.equal(await count(`SELECT count(*) AS n FROM c_currency WHERE iso_code = 'TWD'`), 1);
    assert.equal(await count('SELECT count(*) AS n FROM c_region'), seedRows('C_Region').length);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT (SELECT hasregion || regionname || displaysequence FROM c_country WHERE c_country_id = 101) AS germany,
              (SELECT created = updated FROM c_country WHERE c_country_id = 101) AS seeded,
              (SELECT hasregion || ad_language FROM c_country WHERE c_country_id = 216) AS japan,
              (SELECT count(*)::int FROM c_region WHERE c_country_id = 101) AS bundeslaender,
              (SELECT string_agg(name, ',' ORDER BY c_region_id) FROM c_region WHERE c_region_id IN (102, 107, 120)) AS names,
              (SELECT string_agg(c_region_id::text, ',' ORDER BY c_region_id) FROM c_region WHERE isdefault = 'Y' AND c_country_id = 100) AS defaults,
              (SELECT c_currency_id::int FROM c_country WHERE c_country_id = 9156) AS peso`,
    );
    assert.deepEqual(rows[0], {
      germany: 'YBundeslandD-@P@ @C@',
      seeded: true,
      japan: 'Nen_US',
      bundeslaender: 16,
      names: 'CT,OR,Ontario',
      defaults: '107',
      peso: 230,
    });
    const taiwan = await f.server.request('GET', `/api/v1/models/c_country?$filter=${q("CountryCode eq 'TW'")}&$select=Name,C_Currency_ID`, { token: f.admin });
    assert.deepEqual(taiwan.body.records.map((c: { id: number; C_Currency_ID: { id: number } }) => [c.id, c.C_Currency_ID.id]), [[1000501, 1000500]]);
    assert.deepEqual(await migrate(db), [], 'applied once');
  });

});
