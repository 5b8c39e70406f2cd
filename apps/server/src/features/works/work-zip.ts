import type { Readable } from 'node:stream';
import type { Storage } from '../../platform/storage/storage.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import { storedZip } from './stored-zip.js';
import type { WorkRow } from './work.repository.js';
import { readWorkImageParts } from './work-files.js';

/** A readable file name inside the zip: date, template and a short id, so names never collide. */
export function zipEntryName(row: Pick<WorkRow, 'id' | 'created_at' | 'template_name'>): string {
  const day = row.created_at.slice(0, 10);
  const template = row.template_name.replace(/[\\/:*?"<>|\s]+/g, '_');
  return `${day}_${template}_${row.id}.png`;
}

/**
 * The originals as one zip, streamed: each file is read and labelled (like a single download) only when the
 * archive reaches it, and stored without deflating (PNGs are compressed already), so memory holds one image at a
 * time whatever the count.
 */
export function worksZip(storage: Storage, compliance: ComplianceService, rows: WorkRow[]): Readable {
  return storedZip(
    rows.map((row) => ({
      name: zipEntryName(row),
      mtime: new Date(row.created_at),
      parts: async () => {
        const png = await readWorkImageParts(storage, compliance, row, false);
        if (!png) throw new Error(`missing file of work ${row.id}`);
        return png;
      },
    })),
  );
}
