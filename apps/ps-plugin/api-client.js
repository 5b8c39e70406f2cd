'use strict';
/**
 * 画坊 HTTP calls of the Photoshop panel. Dependency-free CommonJS so that UXP (`require('./api-client.js')`,
 * global fetch) and Node (the server tests, global fetch) load the same file without a build step.
 *
 * Every /api answer is the envelope {code, msg, data}; code 0 is success, anything else carries a Chinese msg.
 * Uploads are encoded as multipart/form-data by hand: UXP's fetch takes an ArrayBuffer body everywhere,
 * while FormData/Blob support differs between UXP versions.
 */

/** The server the panel talks to until the user sets another. */
const DEFAULT_SERVER = 'http://localhost:3000';

/**
 * @typedef {object} Work A work of the logged-in user, image URLs already absolute.
 * @property {string} id
 * @property {string} thumbUrl WebP thumbnail.
 * @property {string} url PNG original.
 * @property {number} width
 * @property {number} height
 * @property {string} createdAt
 * @property {string | null} templateName
 * @property {boolean} public
 */

/**
 * @typedef {object} WorkPage
 * @property {Work[]} list
 * @property {number} current
 * @property {number} pageSize
 * @property {number} total
 */

/**
 * @typedef {object} ClientOptions
 * @property {string} [server] Base URL of the 画坊 server; http://localhost:3000 when empty.
 * @property {string | null} [token] A token from an earlier login.
 * @property {typeof fetch} [fetch] The fetch to use; the global one when absent.
 */

/** A failure to show the user as is. */
class HuafangError extends Error {
  /**
   * @param {string} message
   * @param {{ code?: number, status?: number }} [details]
   */
  constructor(message, details = {}) {
    super(message);
    this.name = 'HuafangError';
    /** Envelope code, when the server answered one. */
    this.code = details.code;
    /** HTTP status, when the server answered. */
    this.status = details.status;
  }
}

/**
 * The server's base URL without a trailing slash; http:// is assumed when no scheme is given.
 * @param {string | null | undefined} input
 * @returns {string}
 */
function normalizeServer(input) {
  let text = String(input ?? '').trim();
  if (!text) text = DEFAULT_SERVER;
  if (!/^https?:\/\//i.test(text)) text = `http://${text}`;
  return text.replace(/\/+$/, '');
}

/**
 * An absolute URL for a path the server returned (`/api/works/image/<id>`); absolute URLs stay as they are.
 * @param {string} server
 * @param {string} pathOrUrl
 * @returns {string}
 */
function resolveUrl(server, pathOrUrl) {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${normalizeServer(server)}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

/**
 * The draw page of the web app with the uploaded image as its init image.
 * @param {string} server
 * @param {string} fileId
 * @returns {string}
 */
function buildDrawUrl(server, fileId) {
  return `${normalizeServer(server)}/draw?initImage=${encodeURIComponent(fileId)}`;
}

/**
 * Bytes of an ASCII string (multipart headers; field and file names here are ASCII).
 * @param {string} text
 * @returns {Uint8Array}
 */
function ascii(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0x7f;
  return bytes;
}

/**
 * A multipart/form-data body with one file part.
 * @param {string} field
 * @param {string} filename ASCII file name.
 * @param {string} contentType
 * @param {ArrayBuffer | Uint8Array} data
 * @returns {{ body: ArrayBuffer, contentType: string }}
 */
function multipartFile(field, filename, contentType, data) {
  const boundary = `----huafang${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
  const head = ascii(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const file = data instanceof Uint8Array ? data : new Uint8Array(data);
  const tail = ascii(`\r\n--${boundary}--\r\n`);
  const body = new Uint8Array(head.length + file.length + tail.length);
  body.set(head, 0);
  body.set(file, head.length);
  body.set(tail, head.length + file.length);
  return { body: body.buffer, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A client bound to one server; it keeps the token of the last login.
 * @param {ClientOptions} [options]
 */
function createClient(options = {}) {
  const server = normalizeServer(options.server);
  /** @type {string | null} */
  let token = options.token ?? null;

  /** @returns {typeof fetch} */
  function fetchImpl() {
    if (options.fetch) return options.fetch;
    if (typeof fetch === 'function') return fetch;
    throw new HuafangError('当前环境不支持网络请求');
  }

  /**
   * @param {string} pathOrUrl
   * @param {RequestInit} [init]
   * @returns {Promise<Response>}
   */
  async function send(pathOrUrl, init = {}) {
    /** @type {Record<string, string>} */
    const headers = { .../** @type {Record<string, string>} */ (init.headers ?? {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    const doFetch = fetchImpl();
    try {
      return await doFetch(resolveUrl(server, pathOrUrl), { ...init, headers });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new HuafangError(`无法连接画坊服务器 ${server}：${reason}`);
    }
  }

  /**
   * An /api call answering the envelope; resolves to its data.
   * @param {string} path
   * @param {RequestInit} [init]
   * @returns {Promise<any>}
   */
  async function call(path, init) {
    const res = await send(path, init);
    /** @type {{ code?: number, msg?: string, data?: unknown } | null} */
    let envelope = null;
    try {
      envelope = await res.json();
    } catch {
      envelope = null;
    }
    if (res.status === 401 || envelope?.code === 401) {
      token = null;
      throw new HuafangError(envelope?.msg || '登录已失效，请重新登录', { code: 401, status: res.status });
    }
    if (!envelope || typeof envelope.code !== 'number') {
      throw new HuafangError(`画坊服务器应答异常（HTTP ${res.status}），请检查服务器地址`, { status: res.status });
    }
    if (envelope.code !== 0) {
      throw new HuafangError(envelope.msg || '请求失败', { code: envelope.code, status: res.status });
    }
    return envelope.data;
  }

  /**
   * Uploads an image (POST /api/files/upload, field `file`); needs a login.
   * @param {ArrayBuffer | Uint8Array} bytes
   * @param {string} [filename] ASCII file name.
   * @param {string} [contentType]
   * @returns {Promise<{ fileId: string, url: string }>}
   */
  async function uploadImage(bytes, filename = 'photoshop.png', contentType = 'image/png') {
    if (!token) throw new HuafangError('请先登录');
    const part = multipartFile('file', filename, contentType, bytes);
    const data = await call('/api/files/upload', {
      method: 'POST',
      headers: { 'content-type': part.contentType },
      body: part.body,
    });
    return { fileId: data.fileId, url: resolveUrl(server, data.url) };
  }

  return {
    /** The base URL every call goes to. */
    server,

    /** @returns {string | null} The token of the last login, null when logged out. */
    get token() {
      return token;
    },

    /** Forgets the token (the server session stays until it expires). */
    logout() {
      token = null;
    },

    /**
     * Logs in with account and password (POST /api/auth/account) and keeps the token.
     * @param {string} account
     * @param {string} password
     * @returns {Promise<string>} The token.
     */
    async login(account, password) {
      if (!String(account ?? '').trim()) throw new HuafangError('请输入账号');
      if (!password) throw new HuafangError('请输入密码');
      token = null;
      /** @type {any} */
      let data;
      try {
        data = await call('/api/auth/account', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account: String(account).trim(), password }),
        });
      } catch (error) {
        // 405: the account is not registered yet; registration happens on the web.
        if (error instanceof HuafangError && error.code === 405) {
          throw new HuafangError('该账号尚未注册，请先在画坊网页完成注册', { code: 405, status: error.status });
        }
        throw error;
      }
      token = data.token;
      return data.token;
    },

    /**
     * The user's recent works, newest first (GET /api/works/profile), with absolute image URLs.
     * @param {number} [pageSize]
     * @param {number} [current]
     * @returns {Promise<WorkPage>}
     */
    async recentWorks(pageSize = 20, current = 1) {
      const query = `current=${encodeURIComponent(current)}&pageSize=${encodeURIComponent(pageSize)}`;
      const data = await call(`/api/works/profile?${query}`);
      /** @type {any[]} */
      const list = Array.isArray(data?.list) ? data.list : [];
      return {
        list: list.map((work) => ({
          ...work,
          url: resolveUrl(server, work.url),
          thumbUrl: resolveUrl(server, work.thumbUrl),
        })),
        current: data?.current ?? current,
        pageSize: data?.pageSize ?? pageSize,
        total: data?.total ?? list.length,
      };
    },

    /**
     * The bytes of an image (a work's url or thumbUrl, relative or absolute).
     * @param {string} pathOrUrl
     * @returns {Promise<ArrayBuffer>}
     */
    async downloadImage(pathOrUrl) {
      const res = await send(pathOrUrl);
      if (!res.ok) {
        /** @type {string | undefined} */
        let msg;
        try {
          msg = (await res.json()).msg;
        } catch {
          msg = undefined;
        }
        throw new HuafangError(msg || `图片下载失败（HTTP ${res.status}）`, { status: res.status });
      }
      return res.arrayBuffer();
    },

    uploadImage,

    /**
     * The draw page URL that opens with this uploaded image as the init image.
     * @param {string} fileId
     * @returns {string}
     */
    drawUrl(fileId) {
      return buildDrawUrl(server, fileId);
    },

    /**
     * Uploads an image and answers the draw page URL for it: the hand-off of 发送到画坊.
     * @param {ArrayBuffer | Uint8Array} bytes PNG bytes.
     * @returns {Promise<{ fileId: string, url: string }>}
     */
    async sendToDraw(bytes) {
      const uploaded = await uploadImage(bytes, 'photoshop.png', 'image/png');
      return { fileId: uploaded.fileId, url: buildDrawUrl(server, uploaded.fileId) };
    },
  };
}

module.exports = { DEFAULT_SERVER, HuafangError, buildDrawUrl, createClient, normalizeServer, resolveUrl };
