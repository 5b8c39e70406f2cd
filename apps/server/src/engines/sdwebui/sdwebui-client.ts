import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { z } from 'zod';
import { explainNetworkError } from '../../platform/network-error.js';
import { EngineError } from '../engine.js';
import { errorBodySchema } from './sdwebui-types.js';

/** Why a request failed, for health messages and for the poller (which treats a 404 as "route missing"). */
export type SdWebUiFailure = 'network' | 'timeout' | 'auth' | 'server' | 'rejected' | 'invalid' | 'redirect';

export class SdWebUiError extends EngineError {
  constructor(
    message: string,
    retryable: boolean,
    readonly reason: SdWebUiFailure,
    /** A short Chinese (or server-given) description without the prefix, for health messages. */
    readonly detail: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, retryable, options);
    this.name = 'SdWebUiError';
  }
}

export type SdWebUiClientOptions = {
  baseUrl: string;
  username?: string;
  password?: string;
  /** Names the backend in failure messages. */
  label: string;
};

export type RequestOptions = {
  /** Sent as JSON. */
  body?: unknown;
  timeoutMs: number;
  /** Aborting rejects with the signal's reason as is (callers that abort know why). */
  signal?: AbortSignal;
};

type HttpAnswer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

const truncate = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The readable part of an A1111 error body: `detail` (a string, or FastAPI's list of `{loc, msg}`), else `errors`. */
export function errorDetail(body: Buffer): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    const text = body.toString('utf8').trim();
    return text && !text.startsWith('<') ? truncate(text) : undefined;
  }
  const result = errorBodySchema.safeParse(parsed);
  if (!result.success) return undefined;
  const { detail, errors } = result.data;
  if (typeof detail === 'string' && detail.trim()) return truncate(detail.trim());
  if (Array.isArray(detail)) {
    const messages = detail.map((item: unknown) => {
      if (!item || typeof item !== 'object') return String(item);
      const { loc, msg } = item as { loc?: unknown; msg?: unknown };
      const where = Array.isArray(loc) ? loc.filter((part) => part !== 'body').join('.') : '';
      return where ? `${where}：${String(msg)}` : String(msg);
    });
    if (messages.length) return truncate(messages.join('；'));
  }
  if (errors?.trim()) return truncate(errors.trim());
  return undefined;
}

/**
 * A thin JSON client for one webui server. It uses node:http rather than the global fetch: fetch's dispatcher
 * gives up after 300 s without response headers, and A1111 answers a generation (or a request queued behind
 * other jobs) only when it is done, so a 10-minute request timeout would silently become 5 minutes.
 */
export class SdWebUiClient {
  private readonly baseUrl: string;
  private readonly authorization?: string;
  /**
   * A fresh connection per request. A kept-alive socket that the server closed while idle (uvicorn drops them after
   * 5 s, and a restart drops them all) fails the next request with ECONNRESET; a generation POST cannot be safely
   * resent, and a poll every 500 ms costs little to connect.
   */
  private readonly agent: HttpAgent | HttpsAgent;
  readonly label: string;

  constructor(options: SdWebUiClientOptions) {
    this.baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
    this.label = options.label;
    this.agent = this.baseUrl.startsWith('https:')
      ? new HttpsAgent({ keepAlive: false })
      : new HttpAgent({ keepAlive: false });
    if (options.username) {
      const token = Buffer.from(`${options.username}:${options.password ?? ''}`, 'utf8').toString('base64');
      this.authorization = `Basic ${token}`;
    }
  }

  /** A JSON request whose answer must fit the schema; every failure is an SdWebUiError. */
  async json<T>(method: 'GET' | 'POST', path: string, schema: z.ZodType<T>, options: RequestOptions): Promise<T> {
    const answer = await this.send(method, path, options);
    if (answer.status >= 300) throw this.statusError(answer);
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body.toString('utf8'));
    } catch (cause) {
      throw this.invalid(path, cause);
    }
    const result = schema.safeParse(parsed);
    if (!result.success) throw this.invalid(path, result.error);
    return result.data;
  }

  private invalid(path: string, cause: unknown): SdWebUiError {
    const detail = `返回了无法识别的数据（${path}）`;
    return new SdWebUiError(`推理后端暂时不可用：「${this.label}」${detail}`, true, 'invalid', detail, undefined, {
      cause,
    });
  }

  private statusError(answer: HttpAnswer): SdWebUiError {
    const { status } = answer;
    if (status < 400) {
      // node:http does not follow redirects, and we do not: a backend's address must be the server itself.
      const text = `返回了重定向（HTTP ${status}），未跟随`;
      return new SdWebUiError(`推理后端暂时不可用：「${this.label}」${text}`, true, 'redirect', text, status);
    }
    const detail = errorDetail(answer.body);
    if (status === 401) {
      return new SdWebUiError('后端认证失败，请检查用户名和密码', false, 'auth', '用户名或密码不正确', status);
    }
    if (status >= 500) {
      const text = `HTTP ${status}${detail ? `：${detail}` : ''}`;
      return new SdWebUiError(`推理后端暂时不可用：「${this.label}」出错（${text}）`, true, 'server', text, status);
    }
    const text = detail ?? `HTTP ${status}`;
    return new SdWebUiError(`推理后端拒绝了任务：${text}`, false, 'rejected', text, status);
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<HttpAnswer> {
    const url = new URL(this.baseUrl + path);
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body), 'utf8');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    if (this.authorization) headers.authorization = this.authorization;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    try {
      return await new Promise<HttpAnswer>((resolve, reject) => {
        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const req = send(url, { method, headers, signal, agent: this.agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('close', () => {
            if (!res.complete) reject(Object.assign(new Error('response cut short'), { code: 'ECONNRESET' }));
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        });
        req.on('error', reject);
        req.end(payload);
      });
    } catch (error) {
      if (options.signal?.aborted && !timeout.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        const seconds = Math.round(options.timeoutMs / 100) / 10;
        const text = `${seconds} 秒内没有响应`;
        const message = `推理后端暂时不可用：「${this.label}」${text}`;
        throw new SdWebUiError(message, true, 'timeout', text, undefined, { cause: error });
      }
      const text = explainNetworkError(error);
      const message = `推理后端暂时不可用：无法连接「${this.label}」：${text}`;
      throw new SdWebUiError(message, true, 'network', text, undefined, { cause: error });
    }
  }
}
