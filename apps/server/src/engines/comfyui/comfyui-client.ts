import { explainNetworkError } from '../../platform/network-error.js';
import { EngineError } from '../engine.js';
import { isRecord } from './comfyui-messages.js';

/**
 * A thin `fetch` client of one ComfyUI server. ComfyUI has no auth of its own; a deployment puts a proxy with a
 * token in front, which we answer with `Authorization: Bearer`.
 */
export type ComfyUiClientOptions = {
  baseUrl: string;
  token?: string;
  label: string;
  requestTimeoutMs: number;
};

/** The backend itself failed (unreachable, timeout, 5xx, auth, lost socket): another backend may do the job. */
export class ComfyUnavailableError extends EngineError {
  constructor(
    /** Short Chinese reason, e.g. 连接被拒绝, shown by health() as well. */
    readonly reason: string,
    label: string,
    options?: { cause?: unknown },
  ) {
    super(`推理后端暂时不可用：「${label}」${reason}`, true, options);
    this.name = 'ComfyUnavailableError';
  }
}

export type ComfyReply = { status: number; body: Buffer };
export type UploadedFile = { name: string; subfolder: string; type: string };

function networkReason(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return '请求超时';
  return explainNetworkError(error);
}

export class ComfyUiClient {
  private readonly base: string;

  constructor(private readonly options: ComfyUiClientOptions) {
    this.base = options.baseUrl.trim().replace(/\/+$/, '');
  }

  get label(): string {
    return this.options.label;
  }

  headers(): Record<string, string> {
    return this.options.token ? { authorization: `Bearer ${this.options.token}` } : {};
  }

  socketUrl(clientId: string): string {
    const url = new URL(`${this.base}/ws`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('clientId', clientId);
    return url.toString();
  }

  unavailable(reason: string, cause?: unknown): ComfyUnavailableError {
    return new ComfyUnavailableError(reason, this.options.label, { cause });
  }

  /**
   * One request, body read within the timeout. Network failures, timeouts, 5xx and 401/403 (a proxy refusing
   * our token) throw ComfyUnavailableError; any other status comes back for the caller to judge.
   */
  async request(
    method: 'GET' | 'POST',
    path: string,
    init: { json?: unknown; form?: FormData; timeoutMs?: number } = {},
  ): Promise<ComfyReply> {
    const headers: Record<string, string> = { ...this.headers() };
    let body: string | FormData | undefined;
    if (init.form) body = init.form;
    else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    let status: number;
    let bytes: Buffer;
    try {
      const response = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body,
        // A backend's address must be the server itself: a redirect could send our token and requests anywhere.
        redirect: 'manual',
        signal: AbortSignal.timeout(init.timeoutMs ?? this.options.requestTimeoutMs),
      });
      status = response.status;
      bytes = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw this.unavailable(networkReason(error), error);
    }
    if (status >= 300 && status < 400)
      throw this.unavailable(`返回了重定向（HTTP ${status}），未跟随，请填写后端服务本身的地址`);
    if (status === 401 || status === 403) throw this.unavailable(`鉴权失败（HTTP ${status}）`);
    if (status >= 500) throw this.unavailable(`服务器错误（HTTP ${status}）`);
    return { status, body: bytes };
  }

  parse(reply: ComfyReply): unknown {
    if (reply.body.length === 0) return null;
    try {
      return JSON.parse(reply.body.toString('utf8'));
    } catch (error) {
      throw this.unavailable('返回了无法识别的内容', error);
    }
  }

  /** GET of a JSON document that must succeed. */
  async getJson(path: string, timeoutMs?: number): Promise<unknown> {
    const reply = await this.request('GET', path, { timeoutMs });
    if (reply.status >= 300) throw new EngineError(`推理后端拒绝了请求：HTTP ${reply.status}（${path}）`, false);
    return this.parse(reply);
  }

  /** POST of a JSON body that must succeed (ComfyUI answers /interrupt and /queue with an empty 200). */
  async postJson(path: string, json: unknown): Promise<unknown> {
    const reply = await this.request('POST', path, { json });
    if (reply.status >= 300) throw new EngineError(`推理后端拒绝了请求：HTTP ${reply.status}（${path}）`, false);
    return this.parse(reply);
  }

  async getBytes(path: string): Promise<Buffer> {
    const reply = await this.request('GET', path);
    if (reply.status >= 300) throw this.unavailable(`取回图片失败（HTTP ${reply.status}）`);
    return reply.body;
  }

  /** `POST /upload/image` (multipart `image`, into `subfolder`, overwrite) → where a LoadImage node finds it. */
  async uploadImage(bytes: Buffer, filename: string, mime: string, subfolder = ''): Promise<UploadedFile> {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type: mime }), filename);
    form.append('type', 'input');
    if (subfolder) form.append('subfolder', subfolder);
    form.append('overwrite', 'true');
    const reply = await this.request('POST', '/upload/image', { form });
    if (reply.status >= 300) throw new EngineError(`推理后端拒绝了上传的图片（HTTP ${reply.status}）`, false);
    const body = this.parse(reply);
    if (!isRecord(body) || typeof body.name !== 'string') throw this.unavailable('上传图片后没有返回文件名');
    return {
      name: body.name,
      subfolder: typeof body.subfolder === 'string' ? body.subfolder : '',
      type: typeof body.type === 'string' ? body.type : 'input',
    };
  }
}
