import type { Correction } from '../apply-corrections.js';

const SERVERS = 'v1/resource/impl/ServerResourceImpl.java';

export const administrationCorrections: Correction[] = [
  {
    kind: 'schema',
    target: { component: 'ServerJob', path: ['properties', 'port'] },
    schema: { type: 'integer' },
    reason: "a server's port is the cluster member's port number",
    source: `${SERVERS}#L86 (server.addProperty("port", instance.getClusterMember().getPort()), an int)`,
  },
  {
    kind: 'optional',
    target: { component: 'ServerJob' },
    properties: ['nodeId', 'hostName', 'port'],
    reason: 'a server without a cluster member is listed without node, host and port',
    source: `${SERVERS}#L83-L87 (added only when getClusterMember() is not null)`,
  },
  {
    kind: 'optional',
    target: { component: 'ServerJobInfo' },
    properties: ['nodeId', 'hostName', 'port', 'lastRun', 'nextRun'],
    reason: 'a server is shown without the node members when it has no cluster member, and without a last or next run it has not got',
    source: `${SERVERS}#L113-L117 (node members), #L121-L125 (lastRun and nextRun only when not null)`,
  },
  {
    kind: 'optional',
    target: { component: 'SchedulerServerJob' },
    properties: ['node-id', 'node-host-name', 'node-port'],
    reason: 'a scheduler that is not in the server manager, or runs without a cluster member, carries no node members',
    source: `${SERVERS}#L326-L330 (added only when the instance and its cluster member exist)`,
  },
  {
    kind: 'optional',
    target: { operation: 'GET /health', status: '200' },
    properties: ['database'],
    reason: 'the database member is there only when the database was checked (db=true)',
    source: 'v1/resource/impl/HealthResourceImpl.java#L164-L166 (database added only when dbStatus is not null)',
  },
];
