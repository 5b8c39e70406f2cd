import { expect } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';

/** A published demo template by name, with its steps as a user sees them. */
export async function demoTemplate(app: TestApp, token: string, name: string) {
  const row = await app.db
    .selectFrom('templates')
    .select('id')
    .where('name', '=', name)
    .where('owner_id', 'is', null)
    .executeTakeFirstOrThrow();
  const detail = await app.call('GET', `/api/task/template/detail/${row.id}`, { token });
  expect(detail.body.code).toBe(0);
  return detail.body.data as { templateId: string; name: string; taskStepList: any[] };
}

/** The body the draw page sends for a step: its prompt groups and the parameters given. */
export function generateBody(
  template: { templateId: string; taskStepList: any[] },
  parameters: object = {},
  stepIndex = 0,
) {
  const step = template.taskStepList[stepIndex];
  return {
    templateId: template.templateId,
    stepIndex,
    promptGroup: step.promptGroup,
    negativePromptGroup: step.negativePromptGroup,
    parameters,
  };
}

/** Polls progress like the draw page until the generation leaves the queue and the backend. */
export async function waitForEnd(app: TestApp, token: string, generateId: string, timeoutMs = 20_000) {
  const started = Date.now();
  const seen: any[] = [];
  for (;;) {
    const res = await app.call('POST', '/api/generate/task/progress', { token, body: { generateId } });
    expect(res.body.code).toBe(0);
    seen.push(res.body.data);
    if (!['queued', 'running'].includes(res.body.data.status)) return { final: res.body.data, seen };
    if (Date.now() - started > timeoutMs) throw new Error(`generation ${generateId} still ${res.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/**
 * Waits until a generation is running (so an interrupt hits a running job). The CPU engine paints slower on a busy
 * machine, so the wait is long; the status is checked every 10 ms so the moment is not missed.
 */
export async function waitForStatus(
  app: TestApp,
  token: string,
  generateId: string,
  status: string,
  minProgress = 0,
  timeoutMs = 60_000,
) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const res = await app.call('POST', '/api/generate/task/progress', { token, body: { generateId } });
    if (res.body.data?.status === status && res.body.data.progress >= minProgress) return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`generation ${generateId} never reached ${status}`);
}

export async function creditsOf(app: TestApp, token: string): Promise<number> {
  const me = await app.call('GET', '/api/user/currentUser', { token });
  return me.body.data.credits;
}

/** What answers API calls as the admin's client: a test app, or a server process the test started. */
type AdminClient = {
  call(
    method: string,
    url: string,
    options: { token: string; body: unknown },
  ): Promise<{ body: { code: number; msg: string; data: any } }>;
};

/** A new model group and an SD 1.5 model in it on `checkpoint`, made by the admin; the model's id. */
export async function addModel(
  api: AdminClient,
  adminToken: string,
  model: { group: string; modelName: string; engine: 'sdwebui' | 'comfyui'; checkpoint: string },
): Promise<string> {
  const group = await api.call('POST', '/api/admin/model-groups', { token: adminToken, body: { name: model.group } });
  const created = await api.call('POST', '/api/admin/models', {
    token: adminToken,
    body: {
      groupId: group.body.data.id,
      modelName: model.modelName,
      baseModel: 'SD 1.5',
      engine: model.engine,
      checkpoint: model.checkpoint,
    },
  });
  expect(created.body.code, created.body.msg).toBe(0);
  return created.body.data.id;
}
