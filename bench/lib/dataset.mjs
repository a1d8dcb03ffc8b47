// The generated data set of the benchmark: business partners of GardenWorld (client 11) with
// realistic names, spread over its organisations, some with a contact (AD_User) and some with an
// address (C_Location + C_BPartner_Location).
//
// Row k (0 <= k < rows) is a pure function of (k, seed): every value is drawn from the word lists
// below by hashint8extended(k, seed * 16 + draw), so a data set can be loaded in steps (10k first,
// then the rest) and reloaded identically. Ids are FIRST_ID + k in every table (sparse in the detail
// tables); the id sequences that the service uses for new records stay below FIRST_ID.
// UUIDs are fresh (gen_random_uuid) on every load.

export const FIRST_ID = 2_000_000;
export const CLIENT_ID = 11;
/** GardenWorld organisations, HQ and Store weighted more. */
export const ORG_IDS = [11, 11, 11, 12, 12, 50000, 50001, 50002, 50004, 50005, 50006];
export const CUSTOMER_GROUP_ID = 103;
export const VENDOR_GROUP_ID = 104;
/** The System user that the demo data also uses as creator. */
export const CREATED_BY = 100;

export const FIRST_NAMES = [
  'Maria', 'Mark', 'Martin', 'Max', 'Mia', 'Michael', 'Ingrid', 'Kevin', 'Sofia', 'Tobias', 'Ulrich', 'Vera',
  'Anna', 'Andrew', 'Alice', 'Amelia', 'Benjamin', 'Beatrice', 'Carlos', 'Charlotte', 'Chloe', 'Daniel', 'David',
  'Elena', 'Emily', 'Emma', 'Ethan', 'Felix', 'Fiona', 'George', 'Grace', 'Hannah', 'Henry', 'Isabel', 'Jacob',
  'James', 'Julia', 'Karen', 'Laura', 'Lena', 'Lucas', 'Luis', 'Nina', 'Noah', 'Olivia', 'Oscar', 'Paul', 'Peter',
  'Rachel', 'Robert', 'Sarah', 'Sophie', 'Thomas', 'Victor', 'William', 'Yusuf', 'Zoe', 'Hiroshi', 'Priya', 'Jonas',
];

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Thompson', 'White',
  'Harris', 'Clark', 'Lewis', 'Walker', 'Hall', 'Young', 'King', 'Wright', 'Scott', 'Green', 'Baker', 'Adams',
  'Nelson', 'Campbell', 'Mitchell', 'Roberts', 'Carter', 'Phillips', 'Evans', 'Turner', 'Parker', 'Collins',
  'Edwards', 'Stewart', 'Morris', 'Murphy', 'Cook', 'Rogers', 'Morgan', 'Cooper', 'Peterson', 'Reed', 'Bailey',
  'Bell', 'Kelly', 'Howard', 'Ward', 'Cox', 'Richardson', 'Wood', 'Watson', 'Brooks', 'Bennett', 'Gray', 'Hughes',
  'Price', 'Sanders', 'Myers', 'Long', 'Ross', 'Foster', 'Schmidt', 'Müller', 'Schneider', 'Fischer', 'Weber',
  'Meyer', 'Wagner', 'Becker', 'Hoffmann', 'Dubois', 'Moreau', 'Rossi', 'Bianchi', 'Tanaka', 'Suzuki', 'Novak',
];

export const COMPANY_ROOTS = [
  'Acme', 'Alder', 'Apex', 'Aspen', 'Atlas', 'Beacon', 'Birch', 'Blue Ridge', 'Cedar', 'Clearwater', 'Coastal',
  'Crescent', 'Evergreen', 'Fairview', 'Fern', 'Golden Gate', 'Granite', 'Green Valley', 'Harbor', 'Highland',
  'Hillside', 'Ivy', 'Juniper', 'Lakeside', 'Linden', 'Maple', 'Marigold', 'Meadow', 'Quarry', 'Stonebridge', 'Brookfield',
  'Midland', 'Northwind', 'Oak', 'Orchard', 'Pacific', 'Pine', 'Prairie', 'Redwood', 'Riverside', 'Rosewood',
  'Sage', 'Silver Creek', 'Summit', 'Sunrise', 'Thistle', 'Timber', 'Valley', 'Willow', 'Windmill',
];

export const COMPANY_KINDS = [
  'Garden Supplies', 'Garden Centre', 'Nursery', 'Landscaping', 'Trading', 'Logistics', 'Farms', 'Hardware',
  'Tools', 'Seeds', 'Irrigation', 'Furniture', 'Home & Garden', 'Wholesale', 'Distribution', 'Growers',
  'Greenhouses', 'Outdoor Living', 'Timber Works', 'Fertilizers',
];

export const LEGAL_FORMS = ['Inc.', 'Ltd', 'LLC', 'GmbH', 'AG', 'S.A.', 'B.V.', '& Co.', 'Corp.', 'Group', 'Partners', ''];

export const CITIES = [
  'Portland', 'Seattle', 'Boston', 'Denver', 'Austin', 'Chicago', 'Madison', 'Marietta', 'Manchester', 'Memphis',
  'Miami', 'Minneapolis', 'Nashville', 'Oakland', 'Phoenix', 'Raleigh', 'Sacramento', 'Salem', 'Tucson', 'Spokane',
  'Berlin', 'Hamburg', 'Munich', 'Cologne', 'Zurich', 'Vienna', 'Lyon', 'Milan', 'Rotterdam', 'Dublin',
];

export const STREETS = [
  'Main Street', 'Oak Avenue', 'Maple Drive', 'Cedar Lane', 'Park Road', 'Elm Street', 'Hill Road', 'Lake View',
  'River Road', 'Church Street', 'Market Street', 'Garden Way', 'Station Road', 'Mill Lane', 'High Street',
  'Meadow Lane', 'Forest Drive', 'Sunset Boulevard', 'Harbor Road', 'Orchard Way',
];

const MAIL_DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example', 'garden.example'];

/**
 * SQL for one draw: a non-negative pseudo-random integer in [0, 2^31) for row k and draw d.
 * hashint8extended is stable across platforms (hash partitioning relies on it).
 */
const draw = (d) => `(hashint8extended(g.k, :seed::bigint * 64 + ${d}) & 2147483647)`;
/** SQL picking an element of a text[] parameter by a draw. */
const pick = (param, d) => `(${param})[1 + ${draw(d)} % cardinality(${param})]`;

/** Values of the named parameters (:name) of the statements below. */
export function datasetValues(seed, from, to) {
  return {
    seed, from, to, first: FIRST_NAMES, last: LAST_NAMES, roots: COMPANY_ROOTS, kinds: COMPANY_KINDS, legal: LEGAL_FORMS,
    cities: CITIES, streets: STREETS, domains: MAIL_DOMAINS, orgs: ORG_IDS,
  };
}

/**
 * Turns :name placeholders into $n (numbered by first use) and gives the values in that order,
 * so that a statement binds only the parameters it uses. "::" (a cast) is left alone.
 */
export function compileNamed(text, values) {
  const order = [];
  const out = text.replace(/(?<!:):([a-z]+)\b/g, (_, name) => {
    if (!(name in values)) throw new Error(`No value for :${name}`);
    let i = order.indexOf(name);
    if (i < 0) i = order.push(name) - 1;
    return `$${i + 1}`;
  });
  return { text: out, values: order.map((n) => values[n]) };
}

const ROWS = `generate_series(:from::bigint, :to::bigint - 1) AS g(k)`;
const FIRST = pick(':first::text[]', 1);
const LAST = pick(':last::text[]', 2);
/** About 40% people ("Maria Schmidt"), the rest companies ("Maple Garden Supplies Ltd", "Baker & Sons"). */
const NAME = `left(CASE WHEN ${draw(3)} % 100 < 40 THEN ${FIRST} || ' ' || ${LAST}
  WHEN ${draw(3)} % 100 < 50 THEN ${LAST} || ' & ' || (ARRAY['Sons','Daughters','Partners','Brothers'])[1 + ${draw(4)} % 4]
  ELSE rtrim(CASE WHEN ${draw(4)} % 3 = 0 THEN ${LAST} ELSE ${pick(':roots::text[]', 5)} END || ' ' || ${pick(':kinds::text[]', 6)} || ' ' || ${pick(':legal::text[]', 7)}) END, 60)`;
/** Role mix: 0-59 customer, 60-79 vendor, 80-89 both, 90-96 prospect, 97-99 employee. */
const ROLE = `${draw(8)} % 100`;
const ORG = `${pick(':orgs::bigint[]', 9)}`;
const CREATED = `timestamp '2019-01-01' + (${draw(10)} % (6 * 365 * 86400)) * interval '1 second'`;
/** About 35% of partners have a contact, about 60% an address. */
const HAS_CONTACT = `${draw(11)} % 100 < 35`;
const HAS_LOCATION = `${draw(12)} % 100 < 60`;

export const INSERT_BPARTNERS = `INSERT INTO c_bpartner (
  c_bpartner_id, c_bpartner_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
  value, name, description, iscustomer, isvendor, isprospect, isemployee, issalesrep, issummary, isonetime,
  istaxexempt, ispotaxexempt, is1099vendor, ismanufacturer, isdiscountprinted, c_bp_group_id, so_creditlimit,
  so_creditused, totalopenbalance, actuallifetimevalue, socreditstatus, sendemail, ad_language, numberemployees)
SELECT ${FIRST_ID} + g.k, gen_random_uuid()::text, ${CLIENT_ID}, ${ORG}, CASE WHEN ${draw(13)} % 100 < 97 THEN 'Y' ELSE 'N' END,
  ${CREATED}, ${CREATED_BY}, ${CREATED} + (${draw(14)} % 400) * interval '1 day', ${CREATED_BY},
  CASE WHEN ${ROLE} BETWEEN 60 AND 79 THEN 'V' ELSE 'C' END || lpad(g.k::text, 7, '0'), ${NAME}, NULL,
  CASE WHEN ${ROLE} < 60 OR ${ROLE} BETWEEN 80 AND 89 THEN 'Y' ELSE 'N' END,
  CASE WHEN ${ROLE} BETWEEN 60 AND 89 THEN 'Y' ELSE 'N' END,
  CASE WHEN ${ROLE} BETWEEN 90 AND 96 THEN 'Y' ELSE 'N' END,
  CASE WHEN ${ROLE} >= 97 THEN 'Y' ELSE 'N' END, 'N', 'N', 'N', 'N', 'N', 'N', 'N', 'N',
  CASE WHEN ${ROLE} BETWEEN 60 AND 79 THEN ${VENDOR_GROUP_ID} ELSE ${CUSTOMER_GROUP_ID} END,
  (${draw(15)} % 50) * 1000, 0, 0, 0, 'O', 'N', 'en_US', 1 + ${draw(16)} % 500
FROM ${ROWS}`;

const CONTACT_FIRST = pick(':first::text[]', 17);
const CONTACT_LAST = pick(':last::text[]', 18);
/** A person partner's contact is the person; a company's is someone there. */
const CONTACT_NAME = `CASE WHEN ${draw(3)} % 100 < 40 THEN ${FIRST} || ' ' || ${LAST} ELSE ${CONTACT_FIRST} || ' ' || ${CONTACT_LAST} END`;

export const INSERT_CONTACTS = `INSERT INTO ad_user (
  ad_user_id, ad_user_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
  name, description, email, phone, title, c_bpartner_id, notificationtype, isfullbpaccess, islocked, isexpired,
  isnopasswordreset, isinpayroll, issaleslead, isbillto, isshipto, isvendorlead, failedlogincount)
SELECT ${FIRST_ID} + g.k, gen_random_uuid()::text, ${CLIENT_ID}, ${ORG}, 'Y', ${CREATED}, ${CREATED_BY}, ${CREATED}, ${CREATED_BY},
  left(${CONTACT_NAME}, 60), NULL,
  lower(replace(${CONTACT_NAME}, ' ', '.')) || '@' || ${pick(':domains::text[]', 19)},
  '+1 ' || lpad((200 + ${draw(20)} % 800)::text, 3, '0') || ' ' || lpad((${draw(21)} % 10000000)::text, 7, '0'),
  (ARRAY['Owner','Purchasing','Accounts','Sales','Manager','Buyer'])[1 + ${draw(22)} % 6],
  ${FIRST_ID} + g.k, 'E', 'Y', 'N', 'N', 'N', 'N', 'N', 'N', 'N', 'N', 0
FROM ${ROWS} WHERE ${HAS_CONTACT}`;

export const INSERT_LOCATIONS = `INSERT INTO c_location (
  c_location_id, c_location_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
  address1, city, postal, c_country_id, isvalid)
SELECT ${FIRST_ID} + g.k, gen_random_uuid()::text, ${CLIENT_ID}, ${ORG}, 'Y', ${CREATED}, ${CREATED_BY}, ${CREATED}, ${CREATED_BY},
  (1 + ${draw(23)} % 999)::text || ' ' || ${pick(':streets::text[]', 24)}, ${pick(':cities::text[]', 25)},
  lpad((${draw(26)} % 100000)::text, 5, '0'), 100, 'Y'
FROM ${ROWS} WHERE ${HAS_LOCATION}`;

export const INSERT_BP_LOCATIONS = `INSERT INTO c_bpartner_location (
  c_bpartner_location_id, c_bpartner_location_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated,
  updatedby, c_bpartner_id, c_location_id, name, isbillto, isshipto, ispayfrom, isremitto, ispreservecustomname, phone)
SELECT ${FIRST_ID} + g.k, gen_random_uuid()::text, ${CLIENT_ID}, ${ORG}, 'Y', ${CREATED}, ${CREATED_BY}, ${CREATED}, ${CREATED_BY},
  ${FIRST_ID} + g.k, ${FIRST_ID} + g.k, ${pick(':cities::text[]', 25)}, 'Y', 'Y', 'Y', 'Y', 'N',
  '+1 ' || lpad((200 + ${draw(20)} % 800)::text, 3, '0') || ' ' || lpad((${draw(27)} % 10000000)::text, 7, '0')
FROM ${ROWS} WHERE ${HAS_LOCATION}`;

/** Tables the data set writes, in load order, each with its statement. */
export const LOAD_STEPS = [
  { table: 'c_bpartner', sql: INSERT_BPARTNERS },
  { table: 'ad_user', sql: INSERT_CONTACTS },
  { table: 'c_location', sql: INSERT_LOCATIONS },
  { table: 'c_bpartner_location', sql: INSERT_BP_LOCATIONS },
];

/** Number of data-set partners already present (ids FIRST_ID .. FIRST_ID + rows - 1). */
export async function loadedRows(client, rows) {
  const r = await client.query('SELECT count(*)::int AS n FROM c_bpartner WHERE c_bpartner_id >= $1 AND c_bpartner_id < $2', [FIRST_ID, FIRST_ID + rows]);
  return r.rows[0].n;
}

/**
 * Loads partners k in [have, rows) in chunks (have = what is already there, found by id range),
 * each chunk in one transaction over all four tables, then VACUUM ANALYZEs them. Returns what it did.
 * Refuses to load when an id sequence of the service has reached the data set's id range.
 */
export async function loadDataset(client, { rows, seed, chunk = 100_000, log = () => {} }) {
  const beyond = await client.query('SELECT count(*)::int AS n FROM c_bpartner WHERE c_bpartner_id >= $1', [FIRST_ID + rows]);
  if (beyond.rows[0].n > 0) {
    throw new Error(`The database holds ${beyond.rows[0].n} more data-set partners than --rows ${rows}: use a database of its own for each size (DATABASE_URL=.../dictum_bench_1m) or drop this one`);
  }
  const have = await loadedRows(client, rows);
  if (have === rows) return { loaded: 0, have, ms: 0 };
  if (have > 0) {
    // A partial load (interrupted run): the chunks are all-or-nothing, so the rows present form a prefix.
    const r = await client.query('SELECT max(c_bpartner_id)::bigint AS hi FROM c_bpartner WHERE c_bpartner_id >= $1 AND c_bpartner_id < $2', [FIRST_ID, FIRST_ID + rows]);
    if (Number(r.rows[0].hi) !== FIRST_ID + have - 1) throw new Error(`The data-set rows in the database are not a prefix of ids ${FIRST_ID}..: drop the benchmark database and start again`);
  }
  await assertSequencesBelow(client);
  const started = performance.now();
  for (let from = have; from < rows; from += chunk) {
    const to = Math.min(rows, from + chunk);
    await client.query('BEGIN');
    try {
      for (const step of LOAD_STEPS) {
        const q = compileNamed(step.sql, datasetValues(seed, from, to));
        await client.query(q.text, q.values);
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK');
      throw e;
    }
    log(`  loaded partners ${from}..${to - 1}`);
  }
  // VACUUM sets the visibility map that index-only scans (the list's count) need; autovacuum would
  // set it some time later, in the middle of a measurement. ANALYZE gives the planner the new rows.
  for (const step of LOAD_STEPS) await client.query(`VACUUM ANALYZE ${step.table}`);
  return { loaded: rows - have, have, ms: performance.now() - started };
}

/** The Description of the orders the order scenario creates (scenarios.mjs). */
export const ORDER_MARK = 'benchmark order';

/** Orders of earlier runs kept in the database: a steady volume, as a database in use holds. */
export const KEPT_ORDERS = 5000;

/**
 * Removes what the write scenarios of earlier runs created, then VACUUM ANALYZEs the tables it
 * removed rows from:
 * - every partner they created (Values W<tag>-…, ids from the service's sequences, below the data
 *   set). Left behind, they grew the partner table from run to run and left pages the visibility
 *   map no longer marked, so the list's count read the table instead of its index alone;
 * - all but the newest KEPT_ORDERS of their orders (Description `benchmark order`), with their
 *   lines and taxes. Unbounded, they would grow from run to run; emptied, the order tables would
 *   give the order scenario the plans of tiny tables, not those of a database in use.
 * A table it removed nothing from is left as it is: analyzing the few demo orders of a new
 * database would plan the order path for tiny tables while orders-in-use.mjs fills them.
 */
export async function clearEarlierWrites(client, keptOrders = KEPT_ORDERS) {
  const partners = await client.query(
    "DELETE FROM c_bpartner WHERE c_bpartner_id >= 1000000 AND c_bpartner_id < $1 AND value LIKE 'W%-%' AND name LIKE '% Garden'",
    [FIRST_ID],
  );
  const older = 'SELECT c_order_id FROM c_order WHERE description = $1 ORDER BY c_order_id DESC OFFSET $2';
  const lines = await client.query(`DELETE FROM c_orderline WHERE c_order_id IN (${older})`, [ORDER_MARK, keptOrders]);
  const taxes = await client.query(`DELETE FROM c_ordertax WHERE c_order_id IN (${older})`, [ORDER_MARK, keptOrders]);
  const orders = await client.query(`DELETE FROM c_order WHERE c_order_id IN (${older})`, [ORDER_MARK, keptOrders]);
  const removed = { c_bpartner: partners, c_order: orders, c_orderline: lines, c_ordertax: taxes };
  for (const [table, result] of Object.entries(removed)) if (result.rowCount) await client.query(`VACUUM ANALYZE ${table}`);
  return { partners: partners.rowCount ?? 0, orders: orders.rowCount ?? 0 };
}

/** The service hands out new ids from per-table sequences; they must stay below the data set. */
async function assertSequencesBelow(client) {
  for (const { table } of LOAD_STEPS) {
    const r = await client.query('SELECT last_value::bigint AS v FROM pg_sequences WHERE schemaname = current_schema() AND sequencename = $1', [`${table}_sq`]);
    const v = r.rows.length ? Number(r.rows[0].v ?? 0) : 0;
    if (v >= FIRST_ID) throw new Error(`Sequence ${table}_sq is at ${v}, inside the data set's id range (from ${FIRST_ID}): drop the benchmark database and start again`);
  }
}

/** Counts per table of the loaded data set, for the report. */
export async function datasetCounts(client, rows) {
  const out = {};
  for (const { table } of LOAD_STEPS) {
    const key = `${table}_id`;
    const r = await client.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${key} >= $1 AND ${key} < $2`, [FIRST_ID, FIRST_ID + rows]);
    out[table] = r.rows[0].n;
  }
  return out;
}

/** The rows the list read counts: active customers of GardenWorld and System (as the demo administrator sees them). */
const LISTED = `ad_client_id IN (0, ${CLIENT_ID}) AND isactive = 'Y' AND iscustomer = 'Y'`;

/**
 * The name range of the list read that matches about `matches` rows: from `prefix` up to (not
 * including) the name of the next listed partner after that many, so that the data set itself
 * need not change. Names repeat, so the count can fall a little short (all copies of the bound's
 * name are left out); it is returned with the range. Fails when the data set lists fewer.
 */
export async function matchesRange(client, prefix, matches) {
  const next = await client.query(`SELECT name FROM c_bpartner WHERE ${LISTED} AND name >= $1 ORDER BY name OFFSET $2 LIMIT 1`, [prefix, matches]);
  if (!next.rows.length) throw new Error(`--list-matches ${matches}: the data set lists fewer partners from '${prefix}' on: lower it or raise --rows`);
  const hi = next.rows[0].name;
  const counted = await client.query(`SELECT count(*)::int AS n FROM c_bpartner WHERE ${LISTED} AND name >= $1 AND name < $2`, [prefix, hi]);
  return { lo: prefix, hi, matches: counted.rows[0].n };
}
