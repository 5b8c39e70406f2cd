import sharp from 'sharp';
import type { TestApp } from './test-app.js';

/** A multipart/form-data body for app.inject, built by hand so tests can send any bytes under any name. */
export function multipartBody(files: { field?: string; filename: string; contentType: string; bytes: Buffer }[]) {
  const boundary = `----huafang${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads a small generated PNG as the user of `token` through /api/files/upload; the envelope as it came. */
export async function uploadPng(app: TestApp, token: string, size = { width: 64, height: 64 }) {
  const bytes = await sharp({ create: { ...size, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();
  const body = multipartBody([{ filename: 'me.png', contentType: 'image/png', bytes }]);
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/files/upload',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  });
  return res.json() as { code: number; msg: string; data: { fileId: string; url: string } };
}
