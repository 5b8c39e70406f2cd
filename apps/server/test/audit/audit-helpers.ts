import type { AuditEntry, AuditLogQuery } from '@huafang/contracts';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Writes every entry recorded so far, in the API app and (scale-out) in the worker beside it, where the ends of
 * generation jobs are recorded: tests read the trail after this instead of sleeping.
 */
export async function flushAudit(app: TestApp): Promise<void> {
  await app.services.audit.recorder.flush();
  await app.worker?.runtime.services.audit.recorder.flush();
}

/** A request from a given client address (the socket's: no proxy is trusted in the test apps). */
export async function callFrom(
  app: TestApp,
  ip: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown } = {},
) {
  const res = await app.app.inject({
    method: method as 'GET',
    url,
    remoteAddress: ip,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
  return { status: res.statusCode, body: res.json() };
}

/** One page of 审计日志 as the admin page asks for it, after the trail has been flushed. */
export async function auditPage(app: TestApp, adminToken: string, query: AuditLogQuery = {}) {
  await flushAudit(app);
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
  );
  const res = await app.call('GET', `/api/admin/audit-log?${search}`, { token: adminToken });
  expect(res.body.code, res.body.msg).toBe(0);
  return res.body.data as { list: AuditEntry[]; total: number; current: number; pageSize: number };
}

/** The entries of one page, checked to come newest first (entries of the same millisecond in the database's order). */
export function newestFirst(list: AuditEntry[]): AuditEntry[] {
  const times = list.map((entry) => entry.at);
  expect(times).toEqual([...times].sort().reverse());
  return list;
}

/** 138****5678: what the trail keeps of a mobile number. */
export const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(7)}`;
