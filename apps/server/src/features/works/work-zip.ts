import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Storage } from '../../platform/storage/storage.js';
import type { WorkRow } from './work.repository.js';

/** A readable file name inside the zip: date, template and a short id, so names never collide. */
export function zipEntryName(row: Pick<WorkRow, 'id' | 'created_at' | 'template_name'>): string {
  const day = row.created_at.slice(0, 10);
  const template = row.template_name.replace(/[\\/:*?"<>|\s]+/g, '_');
  return `${day}_${template}_${row.id}.png`;
}

/**
 * The originals as one zip, streamed: each file is opened only when the archive reaches it, and PNGs are
 * stored as they are (they are compressed already), so memory stays flat whatever the count.
 */
export function worksZip(storage: Storage, rows: WorkRow[]): Readable {
  const zip = new ZipFile();
  for (const row of rows) {
    zip.addReadStreamLazy(zipEntryName(row), { compress: false, mtime: new Date(row.created_at) }, (done) => {
      storage.read(row.image_key).then(
        (stream) =>
          stream ? done(null, stream) : done(new Error(`missing file of work ${row.id}`), undefined as never),
        (err: Error) => done(err, undefined as never),
      );
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}
