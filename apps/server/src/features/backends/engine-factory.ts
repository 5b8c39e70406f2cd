import { ComfyUiEngine } from '../../engines/comfyui/comfyui-engine.js';
import type { InferenceEngine } from '../../engines/engine.js';
import { SdWebUiEngine } from '../../engines/sdwebui/sdwebui-engine.js';
import type { BackendRow } from './backend.repository.js';

/** The engine that talks to a registered backend, from its stored row. */
export function engineForBackend(row: Pick<BackendRow, 'kind' | 'base_url' | 'username' | 'secret' | 'name'>) {
  const secret = row.secret ?? undefined;
  if (row.kind === 'comfyui') {
    return new ComfyUiEngine({ baseUrl: row.base_url, token: secret, label: row.name }) satisfies InferenceEngine;
  }
  return new SdWebUiEngine({
    baseUrl: row.base_url,
    username: row.username ?? undefined,
    password: secret,
    label: row.name,
  }) satisfies InferenceEngine;
}
