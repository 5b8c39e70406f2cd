import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Storage } from '../../platform/storage/storage.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import type { WorkRow } from './work.repository.js';
import { readWorkImage } from './work-files.js';

/** A readable file name inside the zip: date, template and a short id, so names never collide. */
export function zipEntryName(row: Pick<WorkRow, 'id' | 'created_at' | 'template_name'>): string {
  const day = row.created_at.slice(0, 10);
  const template = row.template_name.replace(/[\\/:*?"<>|\s]+/g, '_');
  return `${day}_${template}_${row.id}.png`;
}

/**
 * The originals as one zip, streamed: each file is read and labelled (like a single download) only when the
 * archive reaches it, and PNGs are stored without deflating (they are compressed already), so memory holds one
 * image at a time whatever the count.
 */
export function worksZip(storage: Storage, compliance: ComplianceService, rows: WorkRow[]): Readable {
  const zip = new ZipFile();
  for (const row of rows) {
    zip.addReadStreamLazy(zipEntryName(row), { compress: false, mtime: new Date(row.created_at) }, (done) => {
      readWorkImage(storage, compliance, row, false).then(
        (png) =>
          png
            ? done(null, Readable.from([png]))
            : done(new Error(`missing file of work ${row.id}`), undefined as never),
        (err: Error) => done(err, undefined as never),
      );
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}
