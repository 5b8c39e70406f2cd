import { keysOf } from './keys.js';

/** A sign-in field of the 后端 dialog. */
export type EngineKindField = { label: string; extra?: string; placeholder?: string };

/** What the 添加后端 / 编辑 dialog asks of a remote kind besides its name, address and models. */
export type EngineKindForm = {
  /** A user name beside the secret; absent when the secret alone signs in. */
  username?: EngineKindField;
  /** What the kind calls its secret (a password, a proxy token). */
  secret: EngineKindField;
};

/**
 * An engine kind as the UI and the API know it. `remote`: a server an admin registers and every worker shares (it
 * has a form); otherwise it runs inside each process, always there and not editable.
 */
export type EngineKindDescriptor =
  | { label: string; remote: false }
  | { label: string; remote: true; form: EngineKindForm };

/**
 * Every engine kind, in one place. Adding one is adding its entry here and its folder
 * `apps/server/src/engines/<kind>/` (whose index.ts makes its engine); nothing else names a kind.
 */
export const ENGINE_KINDS = {
  builtin: { label: '内置演示引擎', remote: false },
  sdwebui: {
    label: 'AUTOMATIC1111 / Forge',
    remote: true,
    form: {
      username: {
        label: '用户名（选填）',
        extra: '启动参数 --api-auth 中的用户名',
        placeholder: '未开启 API 认证可留空',
      },
      secret: { label: '密码（选填）' },
    },
  },
  // ComfyUI has no user name: its token alone guards the proxy in front of it.
  comfyui: { label: 'ComfyUI', remote: true, form: { secret: { label: '访问令牌（选填）' } } },
} as const satisfies Record<string, EngineKindDescriptor>;

export type EngineKind = keyof typeof ENGINE_KINDS;
export type RemoteEngineKind = {
  [K in EngineKind]: (typeof ENGINE_KINDS)[K]['remote'] extends true ? K : never;
}[EngineKind];

/** The kinds in the order the UI lists them. */
export const ENGINE_KIND_IDS = keysOf(ENGINE_KINDS);
/** The kinds an admin registers as 推理后端; a new backend or model starts on the first. */
export const REMOTE_ENGINE_KINDS = ENGINE_KIND_IDS.filter(
  (kind): kind is RemoteEngineKind => ENGINE_KINDS[kind].remote,
) as [RemoteEngineKind, ...RemoteEngineKind[]];

export function isEngineKind(value: string): value is EngineKind {
  return Object.hasOwn(ENGINE_KINDS, value);
}
