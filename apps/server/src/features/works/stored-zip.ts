import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * One file of the archive: its bytes are asked for only when the archive reaches it, as pieces written one after
 * another (a labelled original is mostly slices of the stored file, see implicitlyLabelledParts), so none is copied.
 */
export type ZipSource = { name: string; mtime: Date; parts: () => Promise<Buffer[]> };

const MAX_32 = 0xffff_ffff;
const MAX_16 = 0xffff;
/** General purpose flag 11: the file name is UTF-8 (Chinese template names). */
const UTF8_NAMES = 0x0800;
/** Made by Unix (3), spec 4.5; regular file, rw-r--r--. */
const MADE_BY = (3 << 8) | 45;
const FILE_MODE = (0o100644 << 16) >>> 0;
/**
 * Files read while the one before them is sent: reading one after the other, the download waited on the storage
 * for each file and then on the client, about half of reading alone. With the one being sent, READ_AHEAD + 1 files
 * (a few MB) are in memory at once.
 */
const READ_AHEAD = 2;

/** MS-DOS date and time of `date` in local time, as zip readers show them. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A zip of files stored as they are (no deflating: the PNGs are compressed already), streamed with backpressure.
 * Each file's CRC-32 is Node's native one over its pieces, and sizes and CRC go into the local header, so no data
 * descriptor follows; yazl computed it in JavaScript through four piped streams, which capped a download of works
 * near 50 MB/s. ZIP64 records are written only when offsets or the count need them.
 */
export function storedZip(sources: ZipSource[]): Readable {
  return Readable.from(entries(sources), { objectMode: false, highWaterMark: 1024 * 1024 });
}

async function* entries(sources: ZipSource[]): AsyncGenerator<Buffer> {
  const central: Buffer[] = [];
  let offset = 0;
  const reading: Promise<Buffer[]>[] = [];
  let next = 0;
  const readAhead = () => {
    while (next < sources.length && reading.length <= READ_AHEAD) {
      const parts = sources[next++]!.parts();
      // Awaited in its turn; a download stopped before then (the client left) must not leave it unhandled.
      parts.catch(() => {});
      reading.push(parts);
    }
  };
  for (const source of sources) {
    readAhead();
    const parts = await reading.shift()!;
    const size = parts.reduce((sum, part) => sum + part.length, 0);
    if (size >= MAX_32) throw new Error(`zip entry too large: ${source.name}`);
    const name = Buffer.from(source.name, 'utf8');
    const crc = parts.reduce((sum, part) => crc32(part, sum), 0) >>> 0;
    const { time, date } = dosDateTime(source.mtime);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(size, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    yield Buffer.concat([local, name]);
    yield* parts;

    const zip64 = offset >= MAX_32;
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY, 4);
    header.writeUInt16LE(zip64 ? 45 : 20, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(size, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt16LE(zip64 ? 12 : 0, 30);
    header.writeUInt32LE(FILE_MODE, 38);
    header.writeUInt32LE(zip64 ? MAX_32 : offset, 42);
    const extra = Buffer.alloc(zip64 ? 12 : 0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8, 2);
      extra.writeBigUInt64LE(BigInt(offset), 4);
    }
    central.push(header, name, extra);
    offset += local.length + name.length + size;
  }
  const directory = Buffer.concat(central);
  yield directory;
  yield endRecords(sources.length, directory.length, offset);
}

/** The end of central directory record, preceded by the ZIP64 record and locator when a field overflows. */
function endRecords(count: number, size: number, start: number): Buffer {
  const zip64 = count >= MAX_16 || size >= MAX_32 || start >= MAX_32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX_32 : size, 12);
  end.writeUInt32LE(zip64 ? MAX_32 : start, 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(MADE_BY, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(size), 40);
  record.writeBigUInt64LE(BigInt(start), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(start + size), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}
