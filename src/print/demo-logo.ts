import { deflateSync } from 'node:zlib';

/** CRC-32 of PNG chunks. */
function crc32(data: Buffer): number {
  let c = ~0;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB image as a PNG file. */
export function pngOf(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The letters G and W on a 5 by 7 grid. */
const GLYPHS: Record<string, string[]> = {
  G: ['01110', '10001', '10000', '10111', '10001', '10001', '01111'],
  W: ['10001', '10001', '10001', '10101', '10101', '11011', '10001'],
};

/**
 * GardenWorld's logo for its letterhead (the demo's AD_Image 100 names a file it does not ship):
 * a green leaf in a circle and the letters GW, drawn here rather than kept as a binary file.
 */
export function gardenWorldLogo(): Buffer {
  const width = 240;
  const height = 96;
  const green: [number, number, number] = [46, 125, 50];
  const light: [number, number, number] = [200, 230, 201];
  const white: [number, number, number] = [255, 255, 255];
  const cell = 8;
  const letter = (x: number, y: number): boolean => {
    const gx = Math.floor((x - 104) / cell);
    const gy = Math.floor((y - 20) / cell);
    if (gy < 0 || gy >= 7 || gx < 0) return false;
    const glyph = gx < 5 ? GLYPHS.G : gx >= 7 && gx < 12 ? GLYPHS.W : undefined;
    return glyph?.[gy]?.[gx < 5 ? gx : gx - 7] === '1';
  };
  return pngOf(width, height, (x, y) => {
    const dx = x - 48;
    const dy = y - 48;
    if (dx * dx + dy * dy <= 42 * 42) {
      // A leaf: the overlap of two discs, with its vein on the diagonal.
      const inLeaf = (x - 36) ** 2 + (y - 36) ** 2 <= 30 * 30 && (x - 60) ** 2 + (y - 60) ** 2 <= 30 * 30;
      if (inLeaf) return Math.abs(x - y) <= 1 ? green : light;
      return green;
    }
    return letter(x, y) ? green : white;
  });
}
