import { z } from 'zod';

export const uploadResultSchema = z.object({ fileId: z.string(), url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;
export const uploadsResultSchema = z.array(uploadResultSchema);

export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** The links and size of a generated picture, to spread into the z.object of anything that shows one. */
export const pictureFields = {
  /** The original PNG (with its parameters text). */
  url: z.string(),
  /** A WebP thumbnail. */
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
};
