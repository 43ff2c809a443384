/**
 * WOFF (1.0) to the plain TrueType/OpenType file inside it, with the browser's own inflate
 * (DecompressionStream). libass's FreeType reads WOFF and WOFF2 too, but unpacks the whole font
 * in WebAssembly each time it opens it: once when libass lists the fonts it holds and again when a
 * line first uses it, which for a CJK font of several megabytes was a good part of the time
 * before the first line. Done here once, natively, it costs a few milliseconds.
 */
const WOFF = 0x774f4646; // 'wOFF'

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  // WOFF tables are zlib streams: 'deflate' in the Compression Streams standard.
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The sfnt of a WOFF file; any other font (TrueType, OpenType, WOFF2, a collection) as it is. */
export async function unpackWoff(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.byteLength < 44) return bytes;
  const woff = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (woff.getUint32(0) !== WOFF) return bytes;
  const count = woff.getUint16(12);
  if (44 + count * 20 > bytes.byteLength) throw new Error('truncated WOFF');
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20;
    const offset = woff.getUint32(at + 4);
    const length = woff.getUint32(at + 8);
    const originalLength = woff.getUint32(at + 12);
    if (offset + length > bytes.byteLength || length > originalLength) throw new Error('malformed WOFF table');
    return {
      tag: woff.getUint32(at),
      checksum: woff.getUint32(at + 16),
      originalLength,
      data: bytes.subarray(offset, offset + length),
    };
  });
  // A table stored smaller than it is was compressed; one of equal length was stored as it is.
  const bodies = await Promise.all(
    tables.map((table) => (table.data.byteLength < table.originalLength ? inflate(table.data) : table.data)),
  );
  const headerLength = 12 + 16 * count;
  const padded = (n: number) => (n + 3) & ~3;
  const out = new Uint8Array(tables.reduce((total, table) => total + padded(table.originalLength), headerLength));
  const sfnt = new DataView(out.buffer);
  // The sfnt header: its flavour, then the binary-search fields of the table directory.
  const power = 2 ** Math.floor(Math.log2(count || 1));
  sfnt.setUint32(0, woff.getUint32(4));
  sfnt.setUint16(4, count);
  sfnt.setUint16(6, power * 16);
  sfnt.setUint16(8, Math.log2(power));
  sfnt.setUint16(10, count * 16 - power * 16);
  let offset = headerLength;
  tables.forEach((table, i) => {
    const body = bodies[i]!;
    if (body.byteLength !== table.originalLength) throw new Error('malformed WOFF table');
    const at = 12 + i * 16;
    sfnt.setUint32(at, table.tag);
    sfnt.setUint32(at + 4, table.checksum);
    sfnt.setUint32(at + 8, offset);
    sfnt.setUint32(at + 12, table.originalLength);
    out.set(body, offset);
    offset += padded(table.originalLength);
  });
  return out;
}
