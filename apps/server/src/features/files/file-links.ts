import { fail } from '../../platform/errors.js';
import type { FileRepository } from './file.repository.js';

const FILE_LINK = /\/api\/files\/([\w-]{1,64})/g;

export const FOREIGN_FILE_MESSAGE = '只能使用自己上传的图片，请重新上传';

/** The upload ids that a value's texts link to as /api/files/<id>, at any depth. */
function linkedFileIds(value: unknown): Set<string> {
  return new Set([...(JSON.stringify(value ?? null) ?? '').matchAll(FILE_LINK)].map((match) => match[1] as string));
}

/**
 * A cover, or anything inside a published template, is shown to everyone, so its links open the files they name
 * (FileRepository.inPublicUse). A writer may link only their own uploads (an admin, any admin's upload), so that
 * nobody makes another user's upload public; links the row already held (the official cover a copied task keeps)
 * stay as they are.
 */
export async function assertOwnFileLinks(
  files: FileRepository,
  writer: { id: string; isAdmin: boolean },
  value: unknown,
  held: unknown = null,
): Promise<void> {
  const kept = linkedFileIds(held);
  for (const id of linkedFileIds(value)) {
    if (kept.has(id)) continue;
    const file = await files.findById(id);
    if (!file || file.owner_id === writer.id) continue;
    if (writer.isAdmin && (await files.ownerIsAdmin(file.owner_id))) continue;
    throw fail(FOREIGN_FILE_MESSAGE, 400);
  }
}
