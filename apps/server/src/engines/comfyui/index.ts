import type { CreateEngine } from '../engine.js';
import { ComfyUiAssetEngine } from './comfyui-assets.js';

/** ComfyUI's own bound on one request (uploads, history, images); BACKEND_TIMEOUT_SECONDS only lowers it. */
const REQUEST_TIMEOUT_MS = 30_000;

/** ComfyUI reports as it goes, so the operator's timeout bounds the whole job and caps each request. */
export const create: CreateEngine = (address, { timeoutMs }) =>
  new ComfyUiAssetEngine({
    baseUrl: address.baseUrl,
    token: address.secret ?? undefined,
    label: address.name,
    jobTimeoutMs: timeoutMs,
    requestTimeoutMs: timeoutMs === undefined ? undefined : Math.min(REQUEST_TIMEOUT_MS, timeoutMs),
  });
