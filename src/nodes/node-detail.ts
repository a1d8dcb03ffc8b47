import os from 'node:os';
import v8 from 'node:v8';
import type { NodeEntry } from './node-registry.js';

/** What a node detail is built from: this process's state, gathered by the caller. */
export interface NodeFacts {
  node: NodeEntry;
  home: string;
  databaseKind: 'pglite' | 'pg';
  databaseVersion: string | null;
  databaseUrl: string | null;
  dataDir: string;
  databaseUp: boolean;
  logLevel: string;
  currentLogFile: string;
  sessionCount: number;
  gcCount: number;
  gcTimeMs: number;
  eventLoop: { meanMs: number; p99Ms: number; maxMs: number };
  uptimeMs: number;
}

/** A database URL as it may be shown: without its password (nor any query option, which may hold one). */
export function redactedDatabaseUrl(url: string | null, dataDir: string): string {
  if (!url) return `pglite:${dataDir}`;
  try {
    const u = new URL(url);
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return 'postgresql://';
  }
}

const mb = (bytes: number): string => `${Math.round(bytes / 1048576)} MB`;

/** The spec's node detail with this runtime's equivalents of the JVM figures (docs/administration.md). */
export function nodeDetail(f: NodeFacts): Record<string, unknown> {
  const mem = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const load = os.loadavg();
  // Node.js runs JavaScript on one thread; libuv's pool (UV_THREADPOOL_SIZE, 4 by default) does file and DNS work.
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return {
    id: f.node.id,
    hostName: f.node.hostName,
    port: f.node.port,
    home: f.home,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    jvm: `Node.js ${process.version} (V8 ${process.versions.v8})`,
    databaseDescription: f.databaseKind === 'pg' ? `PostgreSQL ${f.databaseVersion ?? ''}`.trim() : `PGlite (embedded PostgreSQL ${f.databaseVersion ?? ''})`.trim(),
    databaseConnectionURL: redactedDatabaseUrl(f.databaseUrl, f.dataDir),
    databaseStatus: f.databaseUp ? 'Connected' : 'Disconnected',
    availableProcessors: os.availableParallelism(),
    averageSystemLoad: Math.round(load[0] * 100) / 100,
    memoryUsage: `rss=${mb(mem.rss)}, external=${mb(mem.external)}, arrayBuffers=${mb(mem.arrayBuffers)}`,
    heapMemoryUsage: `used=${mb(heap.used_heap_size)}, total=${mb(heap.total_heap_size)}, limit=${mb(heap.heap_size_limit)}`,
    eventLoopDelay: `mean=${f.eventLoop.meanMs} ms, p99=${f.eventLoop.p99Ms} ms, max=${f.eventLoop.maxMs} ms`,
    runtime: `${process.pid}@${f.node.hostName}`,
    runtimeUptime: formatUptime(f.uptimeMs),
    threadCount: 1 + pool,
    peakThreadCount: 1 + pool,
    daemonThreadCount: pool,
    totalStartedThreadCount: 1 + pool,
    logLevel: f.logLevel,
    currentLogFile: f.currentLogFile,
    sessionCount: f.sessionCount,
    garbageCollectionCount: f.gcCount,
    garbageCollectionTime: f.gcTimeMs,
  };
}

/** Uptime as days, hours, minutes and seconds: 1d 02:03:04. */
export function formatUptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hh = String(Math.floor((s % 86400) / 3600)).padStart(2, '0');
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `${d > 0 ? `${d}d ` : ''}${hh}:${mm}:${ss}`;
}
