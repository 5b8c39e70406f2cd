import type { Readable } from 'node:stream';
import type { UploadResult } from '@huafang/contracts';
import sharp from 'sharp';
import { fail, forbidden, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { Repositories } from '../../repositories.js';
import type { FileRepository } from './file.repository.js';

const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);
const MAX_SIDE = 4096;
/** Refuse decompression bombs before decoding: 40 megapixels is far above any real upload. */
const MAX_INPUT_PIXELS = 40_000_000;

export type PreparedImage = { data: Buffer; width: number; height: number };

export class FileService {
  private readonly files: FileRepository;

  constructor(
    repos: Repositories,
    private readonly storage: Storage,
    private readonly signer: UrlSigner,
  ) {
    this.files = repos.files;
  }

  /** The plain link of a file shown to everyone (an avatar, a cover); it opens only while the file is in such use. */
  urlOf(fileId: string): string {
    return `/api/files/${fileId}`;
  }

  /** The owner's link to their upload: signed and expiring, since an <img> cannot send a bearer token. */
  signedUrlOf(fileId: string): string {
    return this.signer.sign(this.urlOf(fileId));
  }

  /**
   * Accepts an image by its content, not its name, and re-encodes it: re-encoding drops
   * metadata (location, camera) and anything smuggled after the pixels.
   */
  async prepareImage(bytes: Buffer): Promise<PreparedImage> {
    let meta: { format?: string; width?: number; height?: number } = {};
    try {
      meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      meta = {};
    }
    if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw fail('只能上传图片文件（PNG、JPEG、WebP、GIF）');
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
      throw fail(
        `图片尺寸过大（${meta.width}×${meta.height}），最多 ${MAX_INPUT_PIXELS / 10_000} 万像素，请缩小后再上传`,
      );
    }
    try {
      const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 90 })
        .toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height };
    } catch {
      throw fail('图片已损坏，无法读取');
    }
  }

  async store(ownerId: string, image: PreparedImage): Promise<UploadResult> {
    const id = newId();
    const storageKey = `uploads/${id}.webp`;
    await this.storage.put(storageKey, image.data);
    await this.files.insert({
      id,
      owner_id: ownerId,
      mime: 'image/webp',
      width: image.width,
      height: image.height,
      size: image.data.length,
      storage_key: storageKey,
      created_at: nowIso(),
    });
    return { fileId: id, url: this.signedUrlOf(id) };
  }

  async uploadImage(ownerId: string, bytes: Buffer): Promise<UploadResult> {
    return this.store(ownerId, await this.prepareImage(bytes));
  }

  /** Several images: all are checked before any is stored, so one bad file stores nothing. */
  async uploadImages(ownerId: string, buffers: Buffer[]): Promise<UploadResult[]> {
    const prepared = [];
    for (const bytes of buffers) prepared.push(await this.prepareImage(bytes));
    const results = [];
    for (const image of prepared) results.push(await this.store(ownerId, image));
    return results;
  }

  /** Another user's file is "not found" so ids leak nothing. */
  async requireOwned(ownerId: string, fileId: string, what = '文件') {
    const file = await this.files.findById(fileId);
    if (!file || file.owner_id !== ownerId) throw fail(`${what}文件不存在，请重新上传`);
    return file;
  }

  /** The bytes of one of the owner's files; another user's file is "not found". */
  async readOwned(ownerId: string, fileId: string, what = '文件'): Promise<Buffer> {
    const file = await this.requireOwned(ownerId, fileId, what);
    return readBytes(await this.streamOf(file));
  }

  /**
   * A link the user may open for a kept fileId (a draft, 再次生成, a cover being edited): a fresh signed one
   * for their own file, the plain one for a file in public use, none for another user's upload.
   */
  async linkFor(userId: string, fileId: string): Promise<UploadResult> {
    const file = await this.files.findById(fileId);
    if (file?.owner_id === userId) return { fileId, url: this.signedUrlOf(fileId) };
    if (file && (await this.files.inPublicUse(file, this.urlOf(fileId)))) return { fileId, url: this.urlOf(fileId) };
    throw notFound('文件不存在');
  }

  /**
   * A file as GET /api/files/<id> serves it. Uploads are their owner's: only a link signed for the owner opens
   * them, unless the file is in public use (someone's avatar, a cover), which everyone is shown anyway.
   */
  async serve(fileId: string, e: string | undefined, s: string | undefined) {
    const file = await this.files.findById(fileId);
    if (!file) throw notFound('文件不存在');
    const signed = this.signer.verify(this.urlOf(fileId), e, s);
    const open = !signed && (await this.files.inPublicUse(file, this.urlOf(fileId)));
    if (!signed && !open) throw forbidden('图片链接已失效，请刷新页面');
    return { mime: file.mime, stream: await this.streamOf(file), open };
  }

  /** The stored bytes of a file row already looked up (each caller checked access with it first). */
  private async streamOf(file: { storage_key: string }): Promise<Readable> {
    const stream = await this.storage.read(file.storage_key);
    if (!stream) throw notFound('文件不存在');
    return stream;
  }
}
