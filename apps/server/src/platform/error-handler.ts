import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { BizCode, chineseZodMessage, FIELD_LABELS, MSG } from '@huafang/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isConnectionLost } from './db/database.js';
import { BizError } from './errors.js';
import { isRedisUnavailable } from './redis/redis.js';
import { diskFull, isDiskFull } from './storage/storage.js';

type ValidationIssue = { instancePath: string; message?: string };

/** Marks zod's own (generic) messages; the contracts' messages already name their field. */
const GENERIC_MARK = '\u2063';
z.config({ localeError: (issue) => `${GENERIC_MARK}${chineseZodMessage(issue)}` });

/** A Chinese message naming the field: the contract's own, or zod's generic one after the field's name. */
export function describeValidationIssue(issue: ValidationIssue, context: string | undefined): string {
  const message = issue.message ?? `${GENERIC_MARK}格式不正确`;
  if (!message.startsWith(GENERIC_MARK)) return message;
  const path = issue.instancePath.split('/').filter(Boolean);
  // Own keys only: a path segment such as `constructor` is a field name, not a label.
  const labelOf = (segment: string) => (Object.hasOwn(FIELD_LABELS, segment) ? FIELD_LABELS[segment] : undefined);
  const field = [...path].reverse().find((p) => labelOf(p));
  const label = field ? labelOf(field) : context === 'body' ? '请求内容' : '请求参数';
  return `${label}：${message.slice(GENERIC_MARK.length)}`;
}

/** Framework errors the user caused, with what to tell them. */
const CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容不能为空',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求格式',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求内容长度不正确',
  FST_ERR_CTP_BODY_TOO_LARGE: '请求内容过大',
  FST_INVALID_MULTIPART_CONTENT_TYPE: '请以 multipart/form-data 格式上传文件',
  FST_FILES_LIMIT: '一次上传的文件过多',
  FST_PARTS_LIMIT: '一次上传的内容过多',
};

/** Scale-out: Redis holds the generation queue and its progress; without it those requests cannot be served. */
export const REDIS_UNAVAILABLE = '生成队列暂时无法连接，请稍后重试';

/** A multipart body needs a boundary to be split; without one the parser throws a plain Error. */
function multipartWithoutBoundary(req: FastifyRequest): boolean {
  const type = req.headers['content-type'] ?? '';
  return /^\s*multipart\//i.test(type) && !/;\s*boundary=/i.test(type);
}

/** A multipart body that ends before its closing delimiter (a cut upload): busboy's plain Errors, with no code. */
function truncatedMultipart(req: FastifyRequest, error: Error): boolean {
  return (
    /^\s*multipart\//i.test(req.headers['content-type'] ?? '') &&
    /unexpected end of (multipart data|form)/i.test(error.message)
  );
}

/** The one error mapper: every failure leaves as the envelope; stacks stay in the log. */
export function registerErrorHandler(app: FastifyInstance, uploadMaxBytes: number): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof BizError) {
      return reply.status(error.httpStatus).send({ code: error.code, msg: error.message, data: error.data ?? null });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const msg = first ? describeValidationIssue(first, error.validationContext) : '请求参数不正确';
      return reply.status(400).send({ code: BizCode.FAIL, msg, data: null });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({ code: BizCode.FAIL, msg: MSG.tooManyRequests, data: null });
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
      const mb = Math.round((uploadMaxBytes / 1024 / 1024) * 10) / 10;
      return reply.status(413).send({ code: BizCode.FAIL, msg: `文件过大，单个文件不能超过 ${mb} MB`, data: null });
    }
    const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
    if (known || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
      req.log.info({ err: error }, 'client error');
      return reply.status(error.statusCode ?? 400).send({ code: BizCode.FAIL, msg: known ?? '请求不正确', data: null });
    }
    if (isConnectionLost(error)) {
      req.log.warn({ err: error }, 'database connection lost');
      return reply.status(503).send({ code: BizCode.FAIL, msg: '数据库连接中断，请稍后重试', data: null });
    }
    if (isRedisUnavailable(error)) {
      req.log.warn({ err: error }, 'Redis unavailable');
      return reply.status(503).send({ code: BizCode.FAIL, msg: REDIS_UNAVAILABLE, data: null });
    }
    if (multipartWithoutBoundary(req)) {
      req.log.info({ err: error }, 'multipart body without a boundary');
      return reply.status(400).send({ code: BizCode.FAIL, msg: '上传内容格式不正确，请重新选择文件上传', data: null });
    }
    if (truncatedMultipart(req, error)) {
      req.log.info({ err: error }, 'multipart body cut short');
      return reply.status(400).send({ code: BizCode.FAIL, msg: '上传内容不完整，请重新选择文件上传', data: null });
    }
    if (isDiskFull(error)) {
      req.log.error({ err: error }, 'disk full');
      const full = diskFull();
      return reply.status(full.httpStatus).send({ code: full.code, msg: full.message, data: null });
    }
    req.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({ code: 500, msg: MSG.serverError, data: { requestId: req.id } });
  });
}

/** Fastify's own answers to addresses its router cannot take (Fastify `frameworkErrors`). */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  req.log.info({ err: error }, 'malformed request address');
  const [status, msg] = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? [414, '请求地址过长'] : [400, '请求地址无效'];
  void reply.status(status).send({ code: BizCode.FAIL, msg, data: null });
}

/**
 * Node's HTTP parser refusing a request before Fastify sees it (Fastify `clientErrorHandler`): a request that did
 * not arrive within the timeout, headers over the size limit, bytes that are not HTTP. The socket is then closed.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, msg] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, '请求超时，请重试']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, '请求头过大']
        : [400, '请求格式不正确'];
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ code: BizCode.FAIL, msg, data: null });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
