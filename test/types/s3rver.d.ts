// s3rver ships no types; this is the part the tests use.
declare module 's3rver' {
  import type { Server } from 'node:http';
  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      directory: string;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<unknown>;
    close(): Promise<void>;
    httpServer: Server;
  }
}
