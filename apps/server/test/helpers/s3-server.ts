import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../src/platform/storage/s3-storage.js';

/** s3rver's built-in account: it checks the access key exists, and takes V4 signatures as they come. */
const ACCESS_KEY = 'S3RVER';
const BUCKET = 'huafang-test';

export type TestS3Server = {
  /** What STORAGE=s3 with S3_* would give the server: path-style, as MinIO and most self-hosted servers want. */
  storageConfig: S3StorageConfig;
  /** Every key in the bucket under a prefix, sorted, read with a client of its own. */
  keys(prefix?: string): Promise<string[]>;
  /** Every object write and removal the server took so far, as `ObjectCreated:Put key` and the like. */
  readonly changes: string[];
  close(): Promise<void>;
};

/**
 * A real S3-compatible server (s3rver: the S3 REST API over files in a temp directory) on a free local port,
 * with its bucket created. Starts in milliseconds and needs no Docker, so any suite can run on S3.
 */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'huafang-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const changes: string[] = [];
  server.on('event', (event) => {
    for (const record of event.Records) changes.push(`${record.eventName} ${record.s3.object.key}`);
  });
  const { port } = await server.run();
  const storageConfig: S3StorageConfig = {
    kind: 's3',
    endpoint: `http://127.0.0.1:${port}`,
    bucket: BUCKET,
    region: 'us-east-1',
    accessKeyId: ACCESS_KEY,
    secretAccessKey: ACCESS_KEY,
    forcePathStyle: true,
  };
  const client = new S3Client({
    endpoint: storageConfig.endpoint,
    region: storageConfig.region,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    forcePathStyle: true,
  });

  return {
    storageConfig,
    changes,
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
