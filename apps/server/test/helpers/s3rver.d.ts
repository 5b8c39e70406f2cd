/** The part of s3rver (no published types) the tests use: a real S3 API server over a local directory. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  type Options = {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  };

  export default class S3rver {
    constructor(options?: Options);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** S3 event notifications: one per object written (`ObjectCreated:*`) or removed (`ObjectRemoved:*`). */
    on(
      event: 'event',
      listener: (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => void,
    ): this;
  }
}
