import type { CreateEngine } from '../engine.js';
import { SdWebUiEngine } from './sdwebui-engine.js';

/** A1111 answers a generation only when done, so the operator's timeout bounds that request. */
export const create: CreateEngine = (address, { timeoutMs }) =>
  new SdWebUiEngine({
    baseUrl: address.baseUrl,
    username: address.username ?? undefined,
    password: address.secret ?? undefined,
    label: address.name,
    requestTimeoutMs: timeoutMs,
  });
