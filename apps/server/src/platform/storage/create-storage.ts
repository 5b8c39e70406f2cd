import type { StorageConfig } from '../../config.js';
import { S3Storage } from './s3-storage.js';
import { LocalDiskStorage, type Storage } from './storage.js';

/** STORAGE=local keeps files under DATA_DIR/files; STORAGE=s3 keeps them in one bucket, shared by every process. */
export function createStorage(config: StorageConfig): Storage {
  switch (config.kind) {
    case 'local':
      return new LocalDiskStorage(config.root);
    case 's3':
      return new S3Storage(config);
  }
}
