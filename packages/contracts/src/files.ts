import { z } from 'zod';

export const uploadResultSchema = z.object({ fileId: z.string(), url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;
export const uploadsResultSchema = z.array(uploadResultSchema);

export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
