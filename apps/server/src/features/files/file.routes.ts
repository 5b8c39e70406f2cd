import multipart, { type MultipartFile } from '@fastify/multipart';
import { uploadResultSchema, uploadsResultSchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { fail } from '../../platform/errors.js';
import { reply } from '../../platform/route-schemas.js';
import type { FileService } from './file.service.js';

const tags = ['文件'];
export const MAX_FILES_PER_UPLOAD = 9;
/**
 * An image anyone may open (a public work, an avatar, a cover): shared caches may keep it only a minute, so a
 * withdrawn, hidden or replaced one stops being served soon after the server stops serving it.
 */
export const PUBLIC_IMAGE_CACHE = 'public, max-age=60';
const fileParams = z.object({ fileId: z.string().max(64) });

function requireFileField(part: MultipartFile | undefined): MultipartFile {
  if (!part || (part.fieldname !== 'file' && part.fieldname !== 'files'))
    throw fail('请选择要上传的文件（字段 file）', 400);
  return part;
}

export const fileRoutes: FastifyPluginAsyncZod<{ files: FileService; uploadMaxBytes: number }> = async (
  app,
  { files, uploadMaxBytes },
) => {
  // Only the upload routes take multipart bodies: registered here, its two hooks (one async, one adding a close
  // listener) run on uploads alone instead of on every request, the progress poll included (bench/progress.bench.ts).
  await app.register(multipart, { limits: { fileSize: uploadMaxBytes, files: MAX_FILES_PER_UPLOAD, fields: 10 } });
  app.post(
    '/files/upload',
    {
      schema: {
        tags,
        summary: '上传一张图片（multipart 字段 file）',
        consumes: ['multipart/form-data'],
        response: reply(uploadResultSchema),
      },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => {
      const part = requireFileField(await req.file());
      return ok(await files.uploadImage(currentUser(req).id, await part.toBuffer()), '上传成功');
    },
  );

  app.post(
    '/files/uploads',
    {
      schema: {
        tags,
        summary: '上传多张图片',
        consumes: ['multipart/form-data'],
        response: reply(uploadsResultSchema),
      },
      onRequest: app.requireUser,
      config: { apiKeyScope: 'generate' },
    },
    async (req) => {
      const userId = currentUser(req).id;
      const buffers: Buffer[] = [];
      for await (const part of req.files({ limits: { files: MAX_FILES_PER_UPLOAD } })) {
        buffers.push(await requireFileField(part).toBuffer());
      }
      if (buffers.length === 0) throw fail('请选择要上传的文件（字段 file）', 400);
      return ok(await files.uploadImages(userId, buffers), '上传成功');
    },
  );

  app.get(
    '/files/link/:fileId',
    {
      schema: {
        tags,
        summary: '图片的可用链接（自己的上传为会过期的签名链接）',
        params: fileParams,
        response: reply(uploadResultSchema),
      },
      onRequest: app.requireUser,
    },
    async (req) => ok(await files.linkFor(currentUser(req).id, req.params.fileId)),
  );

  app.get(
    '/files/:fileId',
    {
      schema: {
        tags,
        summary: '读取图片（上传者的签名链接；头像、封面无需签名）',
        params: fileParams,
        querystring: z.object({ e: z.string().max(16).optional(), s: z.string().max(64).optional() }),
      },
    },
    async (req, replyTo) => {
      const file = await files.serve(req.params.fileId, req.query.e, req.query.s);
      return replyTo
        .header('content-type', file.mime)
        .header('cache-control', file.open ? PUBLIC_IMAGE_CACHE : 'private, max-age=3600')
        .send(file.stream);
    },
  );
};
