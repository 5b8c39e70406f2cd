import { expect } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';

/** The admin's client for LoRA and sync calls. */
export function loraAdmin(app: () => TestApp, token: () => string) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) =>
    app().call(method, url, { token: token(), ...(body ? { body } : {}) });
  return {
    call,
    async register(name: string, kind: 'sdwebui' | 'comfyui', baseUrl: string) {
      const res = await call('POST', '/api/admin/backends', { name, kind, baseUrl, models: [], enabled: true });
      expect(res.body.code, res.body.msg).toBe(0);
      return res.body.data.id as string;
    },
    async sync() {
      const res = await call('POST', '/api/admin/models/sync');
      expect(res.body.code, res.body.msg).toBe(0);
      return res.body.data as {
        backends: { backendId: string; name: string; ok: boolean; checkpoints: number; loras: number; vaes: number }[];
        newLoras: number;
      };
    },
    async list(): Promise<any[]> {
      const res = await call('GET', '/api/admin/loras');
      expect(res.body.code, res.body.msg).toBe(0);
      return res.body.data;
    },
    /** The LoRA of that backend name, offered under a Chinese name with the admin's settings. */
    async offer(loraName: string, settings: Record<string, unknown> = {}) {
      const found = (await this.list()).find((lora) => lora.loraName === loraName);
      if (!found) throw new Error(`no LoRA ${loraName}`);
      const { id, locked: _l, unlockHint: _u, backends: _b, hash: _h, ...body } = found;
      const res = await call('PUT', `/api/admin/loras/${id}`, { ...body, enabled: true, ...settings });
      expect(res.body.code, res.body.msg).toBe(0);
      return res.body.data;
    },
  };
}

/** A model made by the admin in a new group; its id. */
export async function addFamilyModel(
  app: TestApp,
  token: string,
  model: { modelName: string; engine: string; checkpoint: string; family: string; access?: { planIds: string[] } },
): Promise<string> {
  const group = await app.call('POST', '/api/admin/model-groups', { token, body: { name: `${model.modelName}组` } });
  const created = await app.call('POST', '/api/admin/models', {
    token,
    body: { groupId: group.body.data.id, baseModel: model.family, ...model },
  });
  expect(created.body.code, created.body.msg).toBe(0);
  return created.body.data.id;
}
