import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorLines, evaluateTargets, formatTable, layout, readsPeak, statementCostRatios, warmupPhase } from '../lib/report.mjs';
import { parseOptions } from '../lib/options.mjs';
import { handwrittenScenarios, prefixUpperBound, listPath, listRange, orderBody, scenarioList } from '../lib/scenarios.mjs';
import { partnerRecord, PARTNER_COLUMNS } from '../lib/handwritten-partner.mjs';
import { listStatements } from '../lib/handwritten-sql.mjs';
import { pgbenchScript } from '../lib/pgbench.mjs';
import { pickStatements, topLevelIndex } from '../lib/capture.mjs';

const sample = () => ({
  scenarios: {
    list: { title: 'list read', connections: 32, rps: 300, p50Ms: 90, p99Ms: 150, errors: 0, ratio: 0.8, ceiling: { tps: 375, p50Ms: 80 } },
    byId: { title: 'by id', connections: 32, rps: 2500, p50Ms: 12, p99Ms: 20, errors: 0 },
    createOrder: { title: 'order', connections: 32, rps: 250, p50Ms: 120, p99Ms: 300, errors: 3, non2xx: 3, socketErrors: 0, sampleError: 'POST -> 500' },
    login: { title: 'login', skipped: 'the checking request answered 404' },
  },
  memory: { peakBytes: 170 * 1024 * 1024, peakMB: 170, peakPhase: 'login', readsPeakMB: 150, readsPeakPhase: 'list' },
  scaling: { smallRows: 10000, fullRows: 100000, costRatio: 2.5, costRatioEstimated: 1.2, small: { rps: 750, p50Ms: 40, p99Ms: 60, errors: 0, connections: 32 }, smallEstimated: { rps: 760, p50Ms: 39, p99Ms: 58, errors: 0, connections: 32 }, full: { rps: 300 } },
  handwritten: {
    list: { title: 'list read', connections: 32, ratio: 0.85, dictum: { rps: 300, p50Ms: 90, p99Ms: 150, errors: 0 }, handwritten: { rps: 353, p50Ms: 80, p99Ms: 140, errors: 0 } },
    byId: { title: 'read by id', connections: 32, ratio: 1.1, dictum: { rps: 2500, p50Ms: 12, p99Ms: 20, errors: 0 }, handwritten: { rps: 2270, p50Ms: 13, p99Ms: 22, errors: 0 } },
  },
});

test('targets are ratios, met, missed or not measured; absolute figures are information', () => {
  const t = Object.fromEntries(evaluateTargets(sample()).map((x) => [x.id, x]));
  assert.equal(t.listVsCeiling.met, true);
  assert.equal(t.listVsHandwritten.met, false);
  assert.equal(t.byIdVsHandwritten.met, true);
  assert.equal(t.rss.met, true);
  assert.equal(t.listScalingEstimated.met, true);
  assert.equal(t.noErrors.value, 4);
  assert.equal(t.noErrors.met, false);
  assert.equal(t.byIdP99, undefined, 'no absolute latency target');
  const none = Object.fromEntries(evaluateTargets({ scenarios: {} }).map((x) => [x.id, x]));
  assert.equal(none.listVsHandwritten.met, null);
  assert.equal(none.listVsHandwritten.shown, 'not measured');
});

test('a missed target says what the run measured about it, where it measured something', () => {
  const r = sample();
  r.handwritten.list.statementMs = { dictum: 1.62, handwritten: 1.18 };
  r.handwritten.handwrittenPeakRssMB = 113;
  r.memory.readsPeakMB = 160;
  const t = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.match(t.listVsHandwritten.why, /1\.62 ms against 1\.18 ms/);
  assert.match(t.rss.why, /peaked at 113 MB/);
  r.scenarios.list.ratio = 0.4;
  r.scenarios.list.ceiling.tps = 1000;
  const slow = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.match(slow.listVsCeiling.why, /hand-written server answered the same list at 0\.35x of that pgbench ceiling .*353 req\/s against 1000 tps.*below the target too/);
  r.handwritten.list.handwritten.rps = 600;
  const fast = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.match(fast.listVsCeiling.why, /at 0\.60x of that pgbench ceiling/);
  assert.doesNotMatch(fast.listVsCeiling.why, /below the target/);
  assert.equal(t.byIdVsHandwritten.why, undefined, 'a met target needs no reason');
  const unmeasured = Object.fromEntries(evaluateTargets(sample()).map((x) => [x.id, x]));
  assert.equal(unmeasured.listVsHandwritten.why, undefined, 'no reason without its figures');
});

test('a missed count-scaling target says when the full size was counted exactly, the estimate not being given', () => {
  const r = sample();
  r.scaling.costRatioEstimated = 1.56;
  r.scaling.fullEstimated = { rps: 470, rowCount: 3109, rowCountKind: 'exact' };
  const exact = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.equal(exact.listScalingEstimated.met, false);
  assert.match(exact.listScalingEstimated.why, /no estimate at the full size: its 3,109 matches are below the estimate's threshold.*--rows 1000000/);
  r.scaling.fullEstimated.rowCountKind = 'estimated';
  const estimated = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.equal(estimated.listScalingEstimated.why, undefined, 'an estimate given and still too slow has no such reason');
});

test('the table shows every scenario, the hand-written comparison, both count modes, and failures loudly', () => {
  const r = sample();
  const table = formatTable(r);
  assert.match(table, /^scenario/);
  assert.match(table, /list read .* 300 .* 375 .* 0\.80x .*list read >= 0\.5x pgbench .* yes/);
  assert.match(table, /list read: hand-written Fastify \+ pg .* 353/);
  assert.match(table, /list read, Dictum \/ hand-written .* 0\.85x .* NO/);
  assert.match(table, /read by id, Dictum \/ hand-written .* 1\.10x .* yes/);
  assert.match(table, /login .*FAILED/);
  assert.match(table, /list read at 10,000 partners/);
  assert.match(table, /list read at 10,000 partners, estimated count .* 760/);
  assert.match(table, /list cost, 100,000 vs 10,000 partners, estimated count .* 1\.20x .* yes/);
  assert.match(table, /list cost, 100,000 vs 10,000 partners, exact count .* information .* 2\.50x/);
  assert.match(table, /server memory under the reads .* 150 MB .* yes/);
  const loud = errorLines(r);
  assert.equal(loud.length, 2);
  assert.match(loud[0], /createOrder: 3 failed requests .*500/);
  assert.match(loud[1], /login: not run/);
});

test('the list cost is shown statement by statement where pgbench ran each alone at both sizes', () => {
  const small = [{ label: 'page', tps: 1000 }, { label: 'count', tps: 12000 }];
  const full = [{ label: 'page', tps: 1100 }, { label: 'count', tps: 200 }];
  assert.deepEqual(statementCostRatios(small, full), [{ label: 'page', ratio: 0.91 }, { label: 'count', ratio: 60 }]);
  assert.deepEqual(statementCostRatios(small, [{ label: 'page', tps: 500 }]), [{ label: 'page', ratio: 2 }], 'a statement measured at one size only is left out');
  assert.deepEqual(statementCostRatios(undefined, full), []);
  const r = sample();
  r.scaling.statementCostRatios = statementCostRatios(small, full);
  assert.match(formatTable(r), /list cost, 100,000 vs 10,000 partners, exact count .*\n {2}pgbench, each statement alone: page 0\.91x, count 60\.00x/);
  assert.doesNotMatch(formatTable(sample()), /each statement alone/);
});

test('layout pads columns and right-aligns figures', () => {
  assert.equal(layout([['a', 'b'], ['long', '1,234'], ['x', '5']]), 'a     b\nlong  1,234\nx         5');
});

test('options are parsed and checked', () => {
  const o = parseOptions(['--rows', '1000000', '--duration=5', '--only', 'list,byId', '--skip-ceiling']);
  assert.equal(o.rows, 1_000_000);
  assert.equal(o.duration, 5);
  assert.deepEqual(o.only, ['list', 'byId']);
  assert.equal(o.skipCeiling, true);
  assert.equal(o.skipScaling, false);
  assert.equal(parseOptions(['--rows', '5000']).skipScaling, true);
  const m = parseOptions(['--list-matches', '5555']);
  assert.equal(m.listMatches, 5555);
  assert.equal(m.skipScaling, true, 'the range is found in the main database only');
  assert.equal(parseOptions([]).listMatches, null);
  assert.throws(() => parseOptions(['--list-matches', '0']), /integer/);
  assert.throws(() => parseOptions(['--rows', 'many']), /integer/);
  assert.throws(() => parseOptions(['--bogus']), /Unknown option/);
});

test('the list filter is a name range', () => {
  assert.equal(prefixUpperBound('Ma'), 'Mb');
  assert.equal(prefixUpperBound('Mz'), 'M{');
  assert.throws(() => prefixUpperBound("M'"), /letters/);
  const p = new URL(`http://x${listPath('Ma')}`).searchParams;
  assert.equal(p.get('$filter'), "Name ge 'Ma' and Name lt 'Mb' and IsCustomer eq true");
  assert.equal(p.get('$orderby'), 'Name');
  assert.equal(p.get('$top'), '50');
  const wide = new URL(`http://x${listPath({ lo: 'Ma', hi: "O'Brien & Sons" })}`).searchParams;
  assert.equal(wide.get('$filter'), "Name ge 'Ma' and Name lt 'O''Brien & Sons' and IsCustomer eq true");
  assert.deepEqual(listRange('Ma'), { lo: 'Ma', hi: 'Mb' });
  const filters = Object.fromEntries(scenarioList({ rows: 10, prefix: 'Ma', range: { lo: 'Ma', hi: 'Mo' }, uuidFile: '' }).filter((d) => d.key.startsWith('list')).map((d) => [d.key, new URL(`http://x${d.path}`).searchParams.get('$filter')]));
  assert.deepEqual(filters, {
    list: "Name ge 'Ma' and Name lt 'Mo' and IsCustomer eq true",
    listEstimated: "Name ge 'Ma' and Name lt 'Mo' and IsCustomer eq true",
    listStartswith: "startswith(Name,'Ma') and IsCustomer eq true",
    listExpand: "Name ge 'Ma' and Name lt 'Mo' and IsCustomer eq true",
  });
  const hw = new URL(`http://x${handwrittenScenarios({ rows: 10, range: { lo: 'Ma', hi: 'Moore & Brothers' } }).list.path}`).searchParams;
  assert.deepEqual([hw.get('lo'), hw.get('hi'), hw.get('top')], ['Ma', 'Moore & Brothers', '50']);
  assert.deepEqual(listStatements({ lo: 'Ma', hi: 'Mc' }).map((s) => s.params), [['Ma', 'Mc', 50, 0], ['Ma', 'Mc']]);
  // pgbench replays them: no :name in their text (the timestamps' format quotes its colons).
  assert.match(pgbenchScript(listStatements({ lo: 'Ma', hi: 'Mc' })), /to_char\(p\.created, 'YYYY-MM-DD"T"HH24":"MI":"SS"Z"'\)/);
  const order = orderBody(undefined, '2026-01-02');
  assert.equal(order.C_OrderLine.length, 10);
  assert.equal(order.DateOrdered, '2026-01-02');
});

test('the statements of a read are picked from the record, with the row count', () => {
  const page = 'SELECT a, (SELECT n FROM u WHERE u.id = "t".a ORDER BY 1 LIMIT 1) AS "b FROM ( x" FROM "t" "t" WHERE x = $1 ORDER BY a LIMIT $2 OFFSET $3';
  const detail = 'SELECT b FROM d WHERE id = ANY($1::bigint[])';
  const recorded = [
    { text: 'SELECT s FROM ad_session WHERE id = $1', params: ['9'] },
    { text: 'SELECT count(*) AS n FROM "t" "t" WHERE x = $1', params: ['11'] },
    { text: page, params: ['11', '50', '0'] },
    { text: detail, params: ['{1,2}'] },
  ];
  const picked = pickStatements({ 'row-count': 5, 'sql-command': page, 'sql-command-D': detail, records: [] }, recorded);
  assert.deepEqual(picked.map((s) => s.params), [['11'], ['11', '50', '0'], ['{1,2}']]);
  assert.throws(() => pickStatements({ 'sql-command': 'SELECT 2' }, recorded), /not seen/);
  assert.equal(topLevelIndex(page, ' FROM '), page.indexOf(' FROM "t"'));
  assert.equal(topLevelIndex(page, ' ORDER BY ', true), page.indexOf(' ORDER BY a'));
  assert.throws(() => pickStatements({ id: 1 }, recorded), /sql-command/);
});

test('a 10-line order created and completed is held to its statements and to its pgbench replay', () => {
  const r = sample();
  r.scenarios.createCompleteOrder = { title: '10-line order create + complete', connections: 1, rps: 60, p50Ms: 15, p99Ms: 30, errors: 0, statementsPerOrder: 24, ratio: 0.6, ceiling: { tps: 100, p50Ms: 9 } };
  let t = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.equal(t.orderCompleteVsReplay.met, true);
  assert.equal(t.orderCompleteStatements.met, true);
  assert.equal(t.orderCompleteStatements.shown, '24');
  r.scenarios.createCompleteOrder.statementsPerOrder = 31;
  r.scenarios.createCompleteOrder.ratio = 0.4;
  t = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.equal(t.orderCompleteVsReplay.met, false);
  assert.equal(t.orderCompleteStatements.met, false);
  assert.match(formatTable(r), /10-line order create \+ complete .* 0\.40x .*>= 0\.5x pgbench replay .* NO/);
});

test('an allocation and a matched vendor invoice are held to their statements and to their pgbench replays', () => {
  const r = sample();
  r.scenarios.createCompleteAllocation = { title: 'allocation create + complete', connections: 1, rps: 80, p50Ms: 12, p99Ms: 25, errors: 0, statementsPerRequest: 24, ratio: 0.7, ceiling: { tps: 115, p50Ms: 8 } };
  r.scenarios.createCompleteMatchedInvoice = { title: 'matched vendor invoice create + complete', connections: 1, rps: 50, p50Ms: 19, p99Ms: 40, errors: 0, statementsPerRequest: 45, ratio: 0.45, ceiling: { tps: 110, p50Ms: 9 } };
  const t = Object.fromEntries(evaluateTargets(r).map((x) => [x.id, x]));
  assert.equal(t.allocationVsReplay.met, true);
  assert.equal(t.allocationStatements.met, true);
  assert.equal(t.allocationStatements.shown, '24');
  assert.equal(t.matchedInvoiceVsReplay.met, false);
  assert.equal(t.matchedInvoiceStatements.met, false);
  const table = formatTable(r);
  assert.match(table, /allocation create \+ complete .* 0\.70x .*>= 0\.5x pgbench replay .* yes/);
  assert.match(table, /<= 44 statements .* 45 .* NO/);
  const none = Object.fromEntries(evaluateTargets({ scenarios: {} }).map((x) => [x.id, x]));
  assert.equal(none.allocationVsReplay.met, null, 'not measured without the scenario');
});

test('the memory target is the peak under the reads; the peak of the whole run is information', () => {
  const phases = { start: 110, list: 140, [warmupPhase('byId')]: 151, 'hand-written': 149, batch: 160, login: 170, between: 165 };
  assert.deepEqual(readsPeak(phases, ['list', 'byId']), { bytes: 151, phase: 'byId warm-up' });
  assert.deepEqual(readsPeak(phases, ['list']), { bytes: 149, phase: 'hand-written' });
  assert.equal(readsPeak({ batch: 160 }, []), null);
  const table = formatTable(sample());
  assert.match(table, /server memory under the reads \(peak RSS, phase list\) .* peak RSS, reads <= 150 MB .* 150 MB .* yes/);
  assert.match(table, /server memory, whole run \(peak in phase login\) .* information .* 170 MB/);
  const none = Object.fromEntries(evaluateTargets({ scenarios: {}, memory: { peakBytes: 1, peakMB: 1 } }).map((x) => [x.id, x]));
  assert.equal(none.rss.met, null, 'no reads, no figure for the target');
});

test("the hand-written server's partner has Dictum's members: nulls left out, identifiers of keys and lists, names in order", () => {
  const names = PARTNER_COLUMNS.map((c) => c[0]);
  assert.deepEqual(names, [...names].sort(), 'members in the order Dictum writes them');
  const row = Object.fromEntries(PARTNER_COLUMNS.map(([n]) => [n.toLowerCase(), null]));
  Object.assign(row, {
    c_bpartner_id: '2000017', c_bpartner_uu: 'u-1', ad_client_id: '11', ad_client_id$i: 'GardenWorld', ad_language: 'en_US', ad_language$i: 'English (USA)',
    iscustomer: 'Y', isvendor: 'N', so_creditlimit: '3000', name: 'Maria Smith', created: '2021-07-03T00:20:07Z', socreditstatus: 'O',
  });
  const lists = new Map([[289, new Map([['O', 'Credit OK']])]]);
  assert.equal(
    JSON.stringify(partnerRecord(row, lists)),
    JSON.stringify({
      id: 2000017, uid: 'u-1',
      AD_Client_ID: { propertyLabel: 'Tenant', id: 11, identifier: 'GardenWorld', 'model-name': 'ad_client' },
      AD_Language: { propertyLabel: 'Language', id: 'en_US', identifier: 'English (USA)', 'model-name': 'ad_language' },
      Created: '2021-07-03T00:20:07Z', IsCustomer: true, IsVendor: false, Name: 'Maria Smith',
      SOCreditStatus: { propertyLabel: 'Credit Status', id: 'O', identifier: 'Credit OK', 'model-name': 'ad_ref_list' },
      SO_CreditLimit: 3000, 'model-name': 'c_bpartner',
    }),
  );
});
