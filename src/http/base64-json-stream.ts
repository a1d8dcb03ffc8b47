import type { Readable } from 'node:stream';
import { pieceStream } from './byte-stream.js';

/**
 * A JSON object whose last member is `key` holding bytes in base64, written as a stream: the
 * bytes come in pieces and are encoded three at a time, so a large file is never one string.
 */
export function base64JsonStream(fields: Record<string, unknown>, key: string, bytes: AsyncIterable<Buffer>): Readable {
  const head = JSON.stringify(fields);
  const open = `${head.slice(0, -1)}${head === '{}' ? '' : ','}${JSON.stringify(key)}:"`;
  async function* parts(): AsyncGenerator<string> {
    yield open;
    let rest = Buffer.alloc(0);
    for await (const piece of bytes) {
      const b = rest.length ? Buffer.concat([rest, piece]) : piece;
      const whole = b.length - (b.length % 3);
      if (whole) yield b.subarray(0, whole).toString('base64');
      rest = Buffer.from(b.subarray(whole));
    }
    yield `${rest.toString('base64')}"}`;
  }
  return pieceStream(parts());
}
