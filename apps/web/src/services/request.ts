import { MSG, REQUEST_TIMEOUT_MS } from '@huafang/contracts';
import { useSession } from '../stores/session';
import { attachmentName } from './attachment';
import { buildUrl, type QueryParams } from './build-url';
import { interpretResponse, type Outcome, UNREADABLE_BODY_TEXT } from './envelope';
import { LOGIN_PATH, navigateTo } from './navigation';
import { errorNotice, toast } from './notices';
import { RequestError } from './request-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  params?: QueryParams;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart; the browser sets the boundary header. */
  form?: FormData;
  signal?: AbortSignal;
  /**
   * The caller shows failures itself (a background poll or estimate that would otherwise repeat a notice on
   * every try): no toast and no 错误提示 notice. A rejected session still logs out.
   */
  quiet?: boolean;
}

export interface EnvelopeResult<T> {
  data: T;
  msg: string;
}

const NETWORK_ERROR_TEXT = '网络异常，无法连接服务器，请检查网络后重试';
const TIMEOUT_TEXT = '请求超时，请稍后重试';

function buildInit(method: HttpMethod, options: RequestOptions, signal: AbortSignal): RequestInit {
  const headers = new Headers({ Accept: 'application/json' });
  const token = useSession.getState().token;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  return { method, headers, body, credentials: 'include', signal };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Spec §4: a rejected session clears the stored keys and returns to the login page. Requests sent together with
 * the same stale key are all refused: only the first signs out, since signing out closes every dialog, and a later
 * 401 would close the login dialog the first one had just opened.
 */
function endSession(msg: string): void {
  const session = useSession.getState();
  if (session.token) {
    session.signOut();
    session.setLoginNotice(msg || MSG.unauthorized);
  }
  navigateTo(LOGIN_PATH);
}

async function send(url: string, method: HttpMethod, options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), REQUEST_TIMEOUT_MS);
  const abortFromCaller = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', abortFromCaller, { once: true });
  try {
    return await fetch(url, buildInit(method, options, controller.signal));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const timedOut = controller.signal.aborted;
    const text = timedOut ? TIMEOUT_TEXT : NETWORK_ERROR_TEXT;
    if (!options.quiet) errorNotice(text);
    throw new RequestError({ message: text, code: null, status: 0, notified: !options.quiet });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abortFromCaller);
  }
}

/**
 * The one request layer (spec §4, §8, §9). Resolves `{data, msg}` only for body code 0; every other answer
 * has been shown to the user (or is left to the caller for 405 and 10004) and rejects with RequestError.
 * Every call asks the server: keeping answers is TanStack Query's job (each area's `…Queries` in services/).
 */
export async function requestEnvelope<T>(path: string, options: RequestOptions = {}): Promise<EnvelopeResult<T>> {
  const response = await send(buildUrl(path, options.params), options.method ?? 'GET', options);
  const body = await readBody(response);
  const outcome = interpretResponse(response.status, response.statusText, body);
  if (outcome.kind !== 'ok') rejectOutcome(outcome, response.status, options);
  return { data: outcome.data as T, msg: outcome.msg };
}

export interface BlobResult {
  blob: Blob;
  /** The name of the content-disposition header, if the server sent one. */
  fileName: string | null;
}

/**
 * A binary answer (a zip) read with the bearer header an <a href> cannot send. When the server answers with an
 * envelope instead, the failure is shown and rejected exactly as for any other request.
 */
export async function requestBlob(path: string, options: RequestOptions = {}): Promise<BlobResult> {
  const response = await send(buildUrl(path, options.params), options.method ?? 'GET', options);
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && !type.includes('application/json')) {
    return { blob: await response.blob(), fileName: attachmentName(response.headers.get('content-disposition')) };
  }
  const outcome = interpretResponse(response.status, response.statusText, await readBody(response));
  rejectOutcome(
    outcome.kind === 'ok'
      ? { kind: 'http', status: response.status, code: null, description: UNREADABLE_BODY_TEXT, data: null }
      : outcome,
    response.status,
    options,
  );
}

/** Shows a failed answer as spec §8 asks (or leaves it to the caller) and rejects with RequestError. */
function rejectOutcome(outcome: Exclude<Outcome, { kind: 'ok' }>, status: number, options: RequestOptions): never {
  switch (outcome.kind) {
    case 'unauthorized':
      endSession(outcome.msg);
      throw new RequestError({ message: outcome.msg || MSG.unauthorized, code: 401, status: 401, notified: true });
    case 'handled':
      throw new RequestError({
        message: outcome.msg,
        code: outcome.code,
        status,
        data: outcome.data,
        notified: false,
      });
    case 'toast':
      if (!options.quiet) toast(outcome.msg);
      throw new RequestError({
        message: outcome.msg,
        code: outcome.code,
        status,
        data: outcome.data,
        notified: !options.quiet,
      });
    case 'http':
      if (!options.quiet) errorNotice(outcome.description);
      throw new RequestError({
        message: outcome.description,
        code: outcome.code,
        status: outcome.status,
        data: outcome.data,
        notified: !options.quiet,
      });
  }
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(path, options)).data;
}

type BodyOptions = Omit<RequestOptions, 'method' | 'body'>;

export const http = {
  get: <T>(path: string, params?: QueryParams, options?: Omit<RequestOptions, 'method' | 'params'>) =>
    request<T>(path, { ...options, method: 'GET', params }),
  post: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    request<T>(path, { ...options, method: 'DELETE', body }),
};
