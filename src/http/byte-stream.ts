import { Readable } from 'node:stream';

/**
 * A readable over pieces of a large body (bytes or text). Readable.from buffers 16 pieces ahead of
 * a slow reader by default; with pieces of a megabyte read from the database that is 16 MB per
 * download held in memory. One piece ahead keeps the reads flowing without it.
 */
export function pieceStream(pieces: AsyncIterable<Buffer | string>): Readable {
  return Readable.from(pieces, { highWaterMark: 1 });
}
