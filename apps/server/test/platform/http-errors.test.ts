import net from 'node:net';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { multipartBody, uploadPng } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

type RawAnswer = { status: number; body: string; closed: boolean };

/** Writes raw bytes to the listening server and reads until it closes the connection or `waitMs` pass. */
function rawRequest(port: number, bytes: string, waitMs: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4), closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => finish(true));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

const envelopeOf = (body: string) => JSON.parse(body) as { code: number; msg: string; data: unknown };

describeServer('platform: slow and malformed requests answer the envelope', () => {
  const ctx = useTestApp({ config: { requestTimeoutMs: 1_000 }, users: ['user'] });
  let port: number;
  beforeAll(async () => {
    await ctx.app.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });

  it('closes a connection whose body never finishes, with 408 请求超时', async () => {
    const request =
      'POST /api/auth/account HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100\r\n\r\n{"ac';
    // Far below Node's own 300 s, far above the configured 1 s plus its checking interval.
    const answer = await rawRequest(port, request, 15_000);
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
    expect(envelopeOf(answer.body)).toEqual({ code: -1, msg: '请求超时，请重试', data: null });
  });

  it('closes a connection whose headers never finish', async () => {
    const answer = await rawRequest(port, 'GET /api/help/types HTTP/1.1\r\nHost: localhost\r\nX-Slow: ', 15_000);
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
  });

  it('answers headers that are too large with 431 请求头过大', async () => {
    const request = `GET /api/help/types HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const answer = await rawRequest(port, request, 15_000);
    expect(answer.status).toBe(431);
    expect(envelopeOf(answer.body)).toEqual({ code: -1, msg: '请求头过大', data: null });
  });

  it('answers a request line the parser refuses with 400 请求格式不正确', async () => {
    const answer = await rawRequest(port, 'GET /api/help/types HTTP/9.9\r\n\r\n', 15_000);
    expect(answer.status).toBe(400);
    expect(envelopeOf(answer.body)).toEqual({ code: -1, msg: '请求格式不正确', data: null });
  });

  it('answers a malformed or over-long address with a Chinese envelope', async () => {
    const bad = await ctx.app.app.inject({ method: 'GET', url: '/api/admin/backends/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: -1, msg: '请求地址无效', data: null });
    const long = await ctx.app.app.inject({ method: 'PUT', url: `/api/admin/backends/${'x'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ code: -1, msg: '请求地址过长', data: null });
  });

  it('answers a multipart upload without a boundary with 400 and a Chinese message', async () => {
    const res = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      headers: { authorization: `Bearer ${ctx.user.token}`, 'content-type': 'multipart/form-data' },
      payload: 'not really multipart',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: -1, msg: '上传内容格式不正确，请重新选择文件上传', data: null });
  });

  it('answers a multipart upload cut before its closing delimiter with 400 and a Chinese message', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const body = multipartBody([{ filename: 'a.png', contentType: 'image/png', bytes: png }]);
    const closing = body.payload.lastIndexOf('\r\n--');
    for (const url of ['/api/files/upload', '/api/files/uploads']) {
      for (const payload of [body.payload.subarray(0, closing), body.payload.subarray(0, closing - 20)]) {
        const res = await ctx.app.app.inject({
          method: 'POST',
          url,
          headers: { ...body.headers, authorization: `Bearer ${ctx.user.token}` },
          payload,
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ code: -1, msg: '上传内容不完整，请重新选择文件上传', data: null });
      }
    }
    // The whole body still uploads.
    expect((await uploadPng(ctx.app, ctx.user.token)).code).toBe(0);
  });
});
