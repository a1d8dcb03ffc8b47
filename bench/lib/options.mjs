// Command-line options of `npm run bench` (node bench/run.mjs [options]).

export const USAGE = `Usage: npm run bench -- [options]    (build first: npm run build)

Starts Dictum on a PostgreSQL server (DATABASE_URL; default: database dictum_bench on this machine's server,
through its Unix socket in /var/run/postgresql when there is one, else 127.0.0.1:5432; the database name must
start with dictum_bench), loads a generated data set, drives load with wrk and
measures PostgreSQL's own ceiling with pgbench. Prints a table; writes bench/results/latest.json.

  --rows N            business partners in the data set (default 100000; 1000000 possible)
  --small-rows N      row count of the scaling comparison, in database <name>_10k (default 10000)
  --duration S        seconds of measurement per scenario (default 10)
  --warmup S          seconds of warm-up before each scenario (default 2; 0 for none)
  --connections N     concurrent connections (default 32)
  --threads N         wrk threads and pgbench jobs (default 2)
  --prefix TEXT       name prefix of the list read's filter (default Ma)
  --list-matches N    widen or narrow the list read's name range (from --prefix on) to about N matching rows;
                      the run then skips the scaling comparison (the range is found in the main database)
  --seed N            seed of the data set's names (default 42)
  --only a,b          run only these scenarios (webhooks: the fan-out): list, listStartswith, listExpand, byId, byUuid,
                      createPartner, createOrder, createCompleteOrder, createCompleteOrderBreaks, createCompleteAllocation,
                      createCompleteMatchedInvoice, batch, batchSerial, login, reports
  --skip-scaling      do not measure the list read at --small-rows
  --skip-ceiling      do not run pgbench
  --tcp               without DATABASE_URL: reach the server over TCP 127.0.0.1:5432, not its Unix socket
  --load-generator G  wrk (default) or autocannon (when installed)
  --profile DIR       run the server with node --cpu-prof, write the profile to DIR and print a summary
  --instances 1,2,3   instead of the main run: the read by id, the list read and the order create + complete
                      against each number of Dictum instances on the same database, behind a round-robin
                      balancer, with the CPU of the instances, PostgreSQL, the balancer and wrk; writes
                      bench/results/instances.json
  --rounds N          with --instances: rounds, each measuring every scenario at every count back to back
                      (default 2), so that the counts compared meet the same load of a shared machine
  --help              this text
`;

const NUMERIC = { rounds: [1, 20], rows: [1, 10_000_000], 'small-rows': [1, 1_000_000], duration: [1, 3600], warmup: [0, 600], connections: [1, 1000], threads: [1, 64], seed: [0, 2 ** 31 - 1], 'list-matches': [1, 10_000_000] };

export function parseOptions(argv) {
  const o = {
    rows: 100_000,
    smallRows: 10_000,
    duration: 10,
    warmup: 2,
    connections: 32,
    threads: 2,
    prefix: 'Ma',
    seed: 42,
    listMatches: null,
    only: null,
    skipScaling: false,
    skipCeiling: false,
    tcp: false,
    loadGenerator: 'wrk',
    profileDir: null,
    instances: null,
    rounds: 2,
    help: false,
  };
  const camel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const name = flag.replace(/^--/, '');
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--help' || flag === '-h') o.help = true;
    else if (flag === '--skip-scaling') o.skipScaling = true;
    else if (flag === '--skip-ceiling') o.skipCeiling = true;
    else if (flag === '--tcp') o.tcp = true;
    else if (name in NUMERIC && flag.startsWith('--')) {
      const v = Number(value());
      const [lo, hi] = NUMERIC[name];
      if (!Number.isInteger(v) || v < lo || v > hi) throw new Error(`${flag} takes an integer from ${lo} to ${hi}`);
      o[camel(name)] = v;
    } else if (flag === '--prefix') o.prefix = value();
    else if (flag === '--only') o.only = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--load-generator') {
      o.loadGenerator = value();
      if (!['wrk', 'autocannon'].includes(o.loadGenerator)) throw new Error('--load-generator takes wrk or autocannon');
    } else if (flag === '--profile') o.profileDir = value();
    else if (flag === '--instances') o.instances = parseInstances(value());
    else throw new Error(`Unknown option ${arg} (see --help)`);
  }
  if (o.smallRows >= o.rows || o.listMatches !== null) o.skipScaling = true;
  return o;
}

/** "1,2,3" -> [1, 2, 3]: distinct instance counts from 1 to 8, ascending. */
export function parseInstances(text) {
  const parts = text.split(',').map((x) => x.trim()).filter(Boolean);
  const counts = parts.map(Number);
  if (!counts.length || counts.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) throw new Error('--instances takes a comma-separated list of instance counts from 1 to 8, e.g. 1,2,3');
  return [...new Set(counts)].sort((a, b) => a - b);
}
