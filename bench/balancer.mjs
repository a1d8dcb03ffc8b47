// A round-robin TCP balancer for the N-instance benchmark (bench/lib/instances.mjs), run as a
// process of its own so that its CPU can be read apart from the load generator's and the servers'.
// Each incoming connection goes to the next target in turn and is piped both ways; wrk keeps its
// connections open, so the load spreads as evenly as the connections do.
//
//   node bench/balancer.mjs --port P --targets 127.0.0.1:p1,127.0.0.1:p2
// Prints "listening <port>" once it accepts connections.
import net from 'node:net';

function parseArgs(argv) {
  const out = { port: 0, targets: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') out.port = Number(argv[++i]);
    else if (argv[i] === '--targets') out.targets = argv[++i].split(',').map((t) => {
      const [host, port] = t.split(':');
      return { host, port: Number(port) };
    });
  }
  if (!out.targets.length || out.targets.some((t) => !t.host || !Number.isInteger(t.port))) throw new Error('--targets host:port[,host:port...] is required');
  return out;
}

const { port, targets } = parseArgs(process.argv.slice(2));
let next = 0;
const server = net.createServer({ noDelay: true }, (client) => {
  const target = targets[next++ % targets.length];
  const upstream = net.connect({ host: target.host, port: target.port, noDelay: true });
  client.pipe(upstream);
  upstream.pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
  client.on('close', close);
  upstream.on('close', close);
});
server.listen(port, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
