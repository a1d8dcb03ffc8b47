import { BLOCKER_HELP, type Blocker, type BlockerKind, type DistributionReport, type TableVerdict } from './check.js';

const PLACEMENTS = [
  ['distributed', 'Distributed by ad_client_id (create_distributed_table)'],
  ['reference', 'Reference tables (create_reference_table)'],
  ['local', 'Local tables, kept on the coordinator'],
] as const;

/** The blockers of one table, one line per kind: "primary-key: c_order_pkey (c_order_id)". */
function blockerLines(blockers: readonly Blocker[]): string[] {
  const byKind = new Map<BlockerKind, string[]>();
  for (const b of blockers) byKind.set(b.kind, [...(byKind.get(b.kind) ?? []), b.detail]);
  return [...byKind].map(([kind, details]) => `${kind}: ${details.join('; ')}`);
}

const tableName = (v: TableVerdict, publicSchema: string | undefined): string => (v.schema === publicSchema ? v.table : `${v.schema}.${v.table}`);

/** The report as text: a summary, the legend of blocker kinds, then every table by placement with its blockers. */
export function formatDistributionReport(report: DistributionReport): string[] {
  const s = report.summary;
  const publicSchema = report.tables.find((t) => t.schema !== 'dictum')?.schema;
  const out = [
    `${s.tables} tables on a distributed PostgreSQL (Citus) by ad_client_id: ${s.distributed} distributed, ${s.reference} reference, ${s.local} local; ${s.ready} without blockers`,
  ];
  const kinds = Object.entries(s.blockers) as [BlockerKind, number][];
  out.push(kinds.length ? `blockers: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}` : 'blockers: none');
  if (kinds.length) {
    out.push('', 'Blocker kinds:');
    for (const [k] of kinds) out.push(`  ${k}: ${BLOCKER_HELP[k]}`);
  }
  for (const [placement, title] of PLACEMENTS) {
    const tables = report.tables.filter((t) => t.distribution === placement);
    if (!tables.length) continue;
    out.push('', `${title}: ${tables.length}`);
    for (const t of tables) {
      out.push(`  ${tableName(t, publicSchema)}: ${t.why}${t.blockers.length ? '' : '; ready'}`);
      for (const line of blockerLines(t.blockers)) out.push(`    ${line}`);
    }
  }
  return out;
}
