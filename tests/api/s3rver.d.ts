// s3rver ships no type declarations; this is the part of it the tests use.
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: Array<{ name: string }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list; the router is the last entry. */
    middleware: unknown[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}

declare module 's3rver/lib/models/error.js' {
  /** An S3 error: s3rver answers it with its status and the XML error body. */
  export default class S3Error extends Error {
    constructor(code: string, message?: string, detail?: Record<string, string>);
  }
}
