/**
 * What scale-out mode shares between worker processes (Redis): which remote backend runs a job of whose, and
 * which were marked down. Embedded mode has one process and needs none.
 */
export interface BackendLeases {
  /** Takes a remote backend for one job; false when some process holds it. */
  acquire(backendId: string, jobId: string): Promise<boolean>;
  release(backendId: string, jobId: string): Promise<void>;
  /** Of these backends, those held by any process now. */
  held(backendIds: string[]): Promise<Set<string>>;
  /** A backend that failed a job stays out for every worker until the mark expires or a check finds it up. */
  markDown(backendId: string, message: string): Promise<void>;
  clearDown(backendId: string): Promise<void>;
  downMarks(backendIds: string[]): Promise<Map<string, string>>;
  close(): Promise<void>;
}
