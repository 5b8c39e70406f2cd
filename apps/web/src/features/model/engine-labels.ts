import { ENGINE_KIND_IDS, ENGINE_KINDS, type EngineKind, REMOTE_ENGINE_KINDS } from '@huafang/contracts';

/** Each kind's name as ENGINE_KINDS (contracts) spells it, for tables and the audit trail. */
export const ENGINE_LABELS = Object.fromEntries(
  ENGINE_KIND_IDS.map((kind) => [kind, ENGINE_KINDS[kind].label]),
) as Record<EngineKind, string>;

const optionsOf = <K extends EngineKind>(kinds: readonly K[]) =>
  kinds.map((value) => ({ value, label: ENGINE_KINDS[value].label }));

/** 推理引擎 of a model: every kind. */
export const ENGINE_OPTIONS = optionsOf(ENGINE_KIND_IDS);
/** 类型 of a backend: the kinds an admin registers. */
export const REMOTE_ENGINE_OPTIONS = optionsOf(REMOTE_ENGINE_KINDS);
