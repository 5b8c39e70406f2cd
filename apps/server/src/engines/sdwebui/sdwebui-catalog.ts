import type { FormOption } from '@huafang/contracts';
import type { EngineAsset, EngineModel } from '../engine.js';
import { guessFamily } from '../family-guess.js';
import type { SdWebUiClient } from './sdwebui-client.js';
import {
  controlNetModelListSchema,
  controlNetModuleListSchema,
  lorasSchema,
  samplersSchema,
  sdModelsSchema,
  vaesSchema,
} from './sdwebui-types.js';

/** What a server offers to choose from: checkpoints, samplers, ControlNet models and preprocessors. */

const LIST_TIMEOUT_MS = 15_000;
/** Tuning fields every ControlNet unit shows besides the module's own sliders. */
const UNIT_FIELDS = ['weight', 'guidanceStart', 'guidanceEnd', 'controlMode'];
/** Forge's module list has no module_detail: show the resolution and the unit fields. */
const DEFAULT_MODULE_FIELDS = ['processorRes', ...UNIT_FIELDS];

/**
 * Our tuning fields of a preprocessor from its ControlNet sliders. The current extension lists the visible ones
 * (resolution, slider_1, slider_2, slider_3); the legacy table holds `null` in a hidden slot, so a null after the
 * first slot still uses up a threshold.
 */
export function fieldsFromSliders(sliders: readonly ({ name?: string | null } | null)[]): string[] {
  const fields: string[] = [];
  const thresholds = ['thresholdA', 'thresholdB'];
  sliders.forEach((slider, index) => {
    if (!slider) {
      if (index > 0) thresholds.shift();
      return;
    }
    if (/resolution/i.test(slider.name ?? '')) {
      if (!fields.includes('processorRes')) fields.push('processorRes');
      return;
    }
    const next = thresholds.shift();
    if (next) fields.push(next);
  });
  return [...fields, ...UNIT_FIELDS];
}

export async function listModels(client: SdWebUiClient): Promise<EngineModel[]> {
  const models = await client.json('GET', '/sdapi/v1/sd-models', sdModelsSchema, { timeoutMs: LIST_TIMEOUT_MS });
  return models.map((model) => ({ title: model.title, name: model.model_name || model.title }));
}

export async function listSamplers(client: SdWebUiClient): Promise<string[]> {
  const samplers = await client.json('GET', '/sdapi/v1/samplers', samplersSchema, {
    timeoutMs: LIST_TIMEOUT_MS,
  });
  return samplers.map((sampler) => sampler.name);
}

export async function listControlNetModels(client: SdWebUiClient): Promise<string[]> {
  const answer = await client.json('GET', '/controlnet/model_list', controlNetModelListSchema, {
    timeoutMs: LIST_TIMEOUT_MS,
  });
  return answer.model_list;
}

export async function listControlNetModules(client: SdWebUiClient): Promise<FormOption[]> {
  const answer = await client.json('GET', '/controlnet/module_list?alias_names=false', controlNetModuleListSchema, {
    timeoutMs: LIST_TIMEOUT_MS,
  });
  return answer.module_list.map((name) => {
    const detail = answer.module_detail?.[name];
    const fields = detail ? fieldsFromSliders(detail.sliders ?? []) : DEFAULT_MODULE_FIELDS;
    return { label: name, value: name, moduleName: name, fromConfig: JSON.stringify(fields) };
  });
}

/** A hash as PNG info shows it: A1111's 10-hex short hash, else the first 10 of a sha256. */
const shortHash = (hash: string | null | undefined, sha256?: string | null) =>
  hash?.trim() || sha256?.trim().slice(0, 10) || null;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Every checkpoint, LoRA and VAE for 同步模型. A LoRA's hash is its metadata's `sshs_model_hash` (what A1111 writes
 * as `Lora hashes`, first 12 hex); its family comes from the training metadata or the file name. VAEs are listed
 * by `/sd-vae` on A1111 and `/sd-modules` on Forge; a server with neither lists none.
 */
export async function listAssets(client: SdWebUiClient): Promise<EngineAsset[]> {
  const options = { timeoutMs: LIST_TIMEOUT_MS };
  const [models, loras] = await Promise.all([
    client.json('GET', '/sdapi/v1/sd-models', sdModelsSchema, options),
    client.json('GET', '/sdapi/v1/loras', lorasSchema, options),
  ]);
  const vaes = await client
    .json('GET', '/sdapi/v1/sd-vae', vaesSchema, options)
    .catch(() => client.json('GET', '/sdapi/v1/sd-modules', vaesSchema, options))
    .catch(() => []);
  return [
    ...models.map(
      (model): EngineAsset => ({
        kind: 'checkpoint',
        title: model.title,
        name: model.model_name || model.title,
        hash: shortHash(model.hash, model.sha256),
        family: guessFamily(model.title),
      }),
    ),
    ...loras.map((lora): EngineAsset => {
      const meta = lora.metadata ?? {};
      return {
        kind: 'lora',
        title: lora.name,
        name: lora.alias || lora.name,
        hash: text(meta.sshs_model_hash).slice(0, 12) || null,
        family: guessFamily(
          text(meta.ss_base_model_version),
          text(meta['modelspec.architecture']),
          text(meta.ss_sd_model_name),
          lora.name,
        ),
      };
    }),
    ...vaes.map((vae): EngineAsset => ({ kind: 'vae', title: vae.model_name, name: vae.model_name, hash: null })),
  ];
}
