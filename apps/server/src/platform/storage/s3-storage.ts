import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { StorageConfig } from '../../config.js';
import type { Storage } from './storage.js';

export type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

/** Sockets per process: a gallery page asks for dozens of thumbnails at once, each held while it streams. */
const MAX_SOCKETS = 100;

/**
 * Files as objects of one bucket (AWS S3, MinIO, Aliyun OSS, Tencent COS…), under the same keys as on disk.
 * Reads stream the object's body as it arrives; nothing is buffered whole here.
 */
export class S3Storage implements Storage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3StorageConfig) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      forcePathStyle: config.forcePathStyle,
      // Since SDK 3.729 every upload carries CRC32 checksums (aws-chunked trailers) by default, which OSS, COS
      // and older MinIO refuse; plain requests work everywhere, and S3 still checks Content-Length and signing.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: new NodeHttpHandler({
        httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
        httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
        // An unreachable endpoint fails fast; a connection silent this long is dead. The idle limit is generous
        // because a slow browser pauses the object's stream while it catches up.
        connectionTimeout: 5_000,
        socketTimeout: 60_000,
      }),
    });
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes }));
  }

  async read(key: string): Promise<Readable | null> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // In Node the SDK hands the HTTP response itself, a Readable; anything else means a browser build.
      if (!(Body instanceof Readable)) throw new Error(`S3 object ${key} has no readable body`);
      return Body;
    } catch (err) {
      if (isMissingKey(err)) return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    // S3 answers a delete of a missing key with success, as LocalDiskStorage does.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * A HEAD of the bucket: proves the endpoint, the credentials and the bucket, and writes nothing (a written probe
   * would leave a version per call in a versioned bucket). A full bucket quota shows on the first upload instead.
   */
  async probe(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}

/** NoSuchKey, or a bare 404 from servers that name it otherwise; a missing bucket stays an error. */
function isMissingKey(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || (err.$metadata.httpStatusCode === 404 && err.name !== 'NoSuchBucket'))
  );
}
