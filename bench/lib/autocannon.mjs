// The fallback load generator when wrk cannot be had: autocannon, if it is installed
// (`npm install --no-save autocannon`). It runs inside this process and costs more CPU than wrk.
import { requestFactory, requestHeaders } from './requests.mjs';

export async function loadAutocannon() {
  try {
    const mod = await import('autocannon');
    return mod.default ?? mod;
  } catch {
    return null;
  }
}

/** Runs one scenario; returns the same figures as wrk.mjs's parseWrkOutput. */
export async function runAutocannon(autocannon, { baseUrl, desc, token, tag, seconds, connections }) {
  const next = requestFactory(desc, tag);
  const headers = requestHeaders(desc, token);
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: 30,
    headers,
    requests: [
      {
        setupRequest: (req) => {
          const r = next();
          return { ...req, method: r.method, path: r.path, body: r.body, headers };
        },
      },
    ],
  });
  const socketErrors = (result.errors ?? 0) + (result.timeouts ?? 0);
  const requests = result.requests?.total ?? 0;
  const secs = result.duration || seconds;
  return {
    requests,
    seconds: secs,
    rps: secs > 0 ? requests / secs : 0,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    mean: result.latency.average,
    max: result.latency.max,
    non2xx: result.non2xx ?? 0,
    socketErrors,
    errors: (result.non2xx ?? 0) + socketErrors,
    bytes: result.throughput?.total ?? 0,
  };
}
