import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * JSON and text answers (records, the OpenAPI document, CSV and HTML reports) are compressed with
 * brotli or gzip as the client's Accept-Encoding prefers, when larger than the threshold (small
 * answers gain nothing but the work). Binary answers (PDF, images, archives) are already compact
 * and pass unchanged, and so do server-sent events. Request bodies are not decompressed: clients
 * send them plain as before. Registered before the routes, since it attaches itself to each route.
 */
export async function compressAnswers(app: FastifyInstance, threshold: number): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    threshold,
    encodings: ['br', 'gzip'],
    customTypes: /^(?:application\/(?:[\w.-]+\+)?json|text\/(?!event-stream))/i,
  });
}
