import { z } from 'zod';
import { displayNameOf } from './fields.js';

/**
 * 个人 API 密钥: a user's programs call the same /api routes with `Authorization: Bearer hf_…`. A key acts as its
 * owner, never as an admin, and only on the routes of its scopes; docs/api.md § API 密钥.
 */

/** Every key starts with this, so a program (and a secret scanner) can tell it from a login token. */
export const API_KEY_PREFIX = 'hf_';
/** Live (not revoked) keys a user may hold at once. */
export const API_KEY_MAX_PER_USER = 10;
export const API_KEY_NAME_MAX = 32;

/** generate: submit, predict, next step, progress, interrupt, uploads. works:read: 我的作品, details and zip downloads. */
export const apiKeyScopeSchema = z.enum(['generate', 'works:read'], { error: '权限范围只能是 generate 或 works:read' });
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;
export const API_KEY_SCOPES = apiKeyScopeSchema.options;

/** What a key's list shows: never the key itself, only its first characters to recognise it by. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `hf_` and the first 8 characters of the secret. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.array(apiKeySchema);

/** POST /api/user/apiKeys (logged in with a password or SMS login, never with a key). */
export const apiKeyCreateBodySchema = z.object({
  name: displayNameOf('密钥名称', API_KEY_NAME_MAX),
  scopes: z
    .array(apiKeyScopeSchema, { error: '请选择权限范围' })
    .min(1, '请至少选择一项权限范围')
    .max(API_KEY_SCOPES.length, '权限范围重复')
    .refine((scopes) => new Set(scopes).size === scopes.length, '权限范围重复'),
});
export type ApiKeyCreateBody = z.input<typeof apiKeyCreateBodySchema>;

/** The answer of a create: the whole key, shown this once (only its hash is kept). */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const apiKeyIdParamsSchema = z.object({
  keyId: z.string().trim().min(1, '缺少密钥编号').max(64, '密钥编号格式不正确'),
});
