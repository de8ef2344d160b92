// A PNG's or JPEG's pixel size, read from its header before anything decodes it: a small file can
// hold a huge image (a PNG of zeros compresses a thousandfold), and pdfkit decodes a PNG's every pixel
// when it has transparency or is interlaced. A PNG's image data is also inflated here as a stream and
// counted (nothing kept): more data than its size allows, a bad row filter or a broken zlib stream
// would make pdfkit's background decoding hold it all or throw outside any request.
import { createInflate } from 'node:zlib';

export const MAX_RASTER_SIDE = 4000;
export const MAX_RASTER_PIXELS = 4_000_000;

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
// Adam7 passes: first column, first row, column step, row step.
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

export interface RasterSize { width: number; height: number }
interface PngHeader extends RasterSize { bitDepth: number; colorType: number; interlaced: boolean }

// What pdfkit opens as a PNG (the first 4 bytes of the signature; it reads from byte 8 on) or as a JPEG.
export const isPng = (bytes: Uint8Array): boolean => bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
export const isJpeg = (bytes: Uint8Array): boolean => bytes[0] === 0xff && bytes[1] === 0xd8;

/** The pixel size of a PNG or JPEG from its header, or null when the header cannot be read. */
export function rasterSize(bytes: Buffer): RasterSize | null {
  return isPng(bytes) ? pngHeader(bytes) : isJpeg(bytes) ? jpegSize(bytes) : null;
}

/** Why a PNG or JPEG is too large (or its header unreadable), or null. */
export function rasterSizeProblem(bytes: Buffer, what = 'the image'): string | null {
  const size = rasterSize(bytes);
  if (!size) return `${what} has no readable PNG or JPEG header`;
  return size.width > MAX_RASTER_SIDE || size.height > MAX_RASTER_SIDE || size.width * size.height > MAX_RASTER_PIXELS
    ? `${what} is ${size.width}×${size.height} pixels: at most ${MAX_RASTER_SIDE} a side and ${MAX_RASTER_PIXELS} in all`
    : null;
}

function pngHeader(bytes: Buffer): PngHeader | null {
  // The IHDR chunk comes first: length 13, type, then width, height, depth, colour type, compression, filter, interlace.
  if (bytes.length < 33 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  const header = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bitDepth: bytes[24], colorType: bytes[25], interlaced: bytes[28] === 1 };
  const valid = header.width > 0 && header.height > 0 && (PNG_DEPTHS[header.colorType]?.includes(header.bitDepth) ?? false)
    && bytes[26] === 0 && bytes[27] === 0 && bytes[28] <= 1;
  return valid ? header : null;
}

/** The size from a JPEG's first frame header (SOFn), walking the marker segments before it. */
function jpegSize(bytes: Buffer): RasterSize | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    if (marker === 0xff) { offset += 1; continue; } // fill byte
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) { offset += 2; continue; } // no length
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 7 || offset + 9 > bytes.length) return null;
      const height = bytes.readUInt16BE(offset + 5), width = bytes.readUInt16BE(offset + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    offset += 2 + length;
  }
  return null;
}

/** The bytes of each scanline (its filter byte included), pass by pass when interlaced. */
function* scanlines(header: PngHeader): Generator<number> {
  const bits = header.bitDepth * PNG_CHANNELS[header.colorType];
  for (const [x0, y0, dx, dy] of header.interlaced ? ADAM7 : [[0, 0, 1, 1]]) {
    const columns = Math.ceil((header.width - x0) / dx), rows = Math.ceil((header.height - y0) / dy);
    if (columns > 0) for (let row = 0; row < rows; row++) yield 1 + Math.ceil((columns * bits) / 8);
  }
}

/** Why a PNG (its size checked: rasterSizeProblem) cannot be decoded safely, or null. */
export async function pngDataProblem(bytes: Buffer, what = 'the PNG'): Promise<string | null> {
  const header = pngHeader(bytes);
  if (!header) return `${what} has no readable header`;
  const data: Buffer[] = [];
  let offset = 8;
  for (;;) {
    if (offset + 12 > bytes.length) return `${what} is truncated`;
    const length = bytes.readUInt32BE(offset), type = bytes.toString('latin1', offset + 4, offset + 8);
    if (offset + 12 + length > bytes.length) return `${what} is truncated`;
    if (type === 'IDAT') data.push(bytes.subarray(offset + 8, offset + 8 + length));
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  let expected = 0;
  for (const line of scanlines(header)) expected += line;
  return new Promise((resolve) => {
    const inflate = createInflate();
    const lines = scanlines(header);
    let seen = 0, filterAt = 0, line = lines.next();
    const stop = (problem: string) => { inflate.destroy(); resolve(problem); };
    inflate.on('data', (chunk: Buffer) => {
      const end = seen + chunk.length;
      if (end > expected) return stop(`${what} holds more image data than its ${header.width}×${header.height} pixels`);
      for (; !line.done && filterAt < end; line = lines.next()) {
        if (chunk[filterAt - seen] > 4) return stop(`${what} has an invalid row filter`);
        filterAt += line.value;
      }
      seen = end;
    });
    inflate.on('end', () => resolve(seen === expected ? null : `${what} holds less image data than its ${header.width}×${header.height} pixels`));
    inflate.on('error', () => resolve(`${what} image data is not valid zlib data`));
    for (const part of data) inflate.write(part);
    inflate.end();
  });
}
