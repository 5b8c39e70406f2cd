import { z } from 'zod';

/**
 * The parts of the AUTOMATIC1111 / Forge API answers the adapter reads (modules/api/models.py, modules/progress.py,
 * sd-webui-controlnet scripts/api.py). Unknown keys are dropped; every field is optional or nullable because
 * versions and forks differ, and a missing field must not fail a finished job.
 */

/** `POST /sdapi/v1/txt2img` and `/img2img`: base64 images and `info`, a JSON *string*. */
export const generateResponseSchema = z.object({
  images: z.array(z.string()).nullish(),
  info: z.string().nullish(),
});

/** The parsed `info` string (Processed.js()). */
export const generateInfoSchema = z.object({
  seed: z.number().nullish(),
  all_seeds: z.array(z.number()).nullish(),
  infotexts: z.array(z.string()).nullish(),
  /** 1 when a grid leads the images (only when the server saves grids; we ask it not to). */
  index_of_first_image: z.number().nullish(),
});
export type GenerateInfo = z.infer<typeof generateInfoSchema>;

/** `POST /sdapi/v1/extra-single-image`. */
export const extrasResponseSchema = z.object({ image: z.string().nullish(), html_info: z.string().nullish() });

/** `POST /internal/progress`: per task, via `force_task_id`. */
export const internalProgressSchema = z.object({
  active: z.boolean().nullish(),
  queued: z.boolean().nullish(),
  completed: z.boolean().nullish(),
  progress: z.number().nullish(),
  eta: z.number().nullish(),
  live_preview: z.string().nullish(),
  id_live_preview: z.number().nullish(),
});

/** `GET /sdapi/v1/progress`: global to the server. */
export const globalProgressSchema = z.object({
  progress: z.number().nullish(),
  eta_relative: z.number().nullish(),
  state: z
    .object({
      job: z.string().nullish(),
      job_count: z.number().nullish(),
      job_no: z.number().nullish(),
      sampling_step: z.number().nullish(),
      sampling_steps: z.number().nullish(),
    })
    .nullish(),
  current_image: z.string().nullish(),
});
export type GlobalProgress = z.infer<typeof globalProgressSchema>;

export const sdModelsSchema = z.array(
  z.object({
    title: z.string(),
    model_name: z.string().nullish(),
    hash: z.string().nullish(),
    sha256: z.string().nullish(),
  }),
);
/** `/sdapi/v1/loras`: `metadata` is the file's training metadata (`ss_*` keys, `sshs_model_hash`), often empty. */
export const lorasSchema = z.array(
  z.object({
    name: z.string(),
    alias: z.string().nullish(),
    path: z.string().nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
  }),
);
/** `/sdapi/v1/sd-vae` (A1111) and `/sdapi/v1/sd-modules` (Forge). */
export const vaesSchema = z.array(z.object({ model_name: z.string(), filename: z.string().nullish() }));
export const samplersSchema = z.array(z.object({ name: z.string() }));
export const controlNetModelListSchema = z.object({ model_list: z.array(z.string()) });

/** One slider of a preprocessor; the legacy slider table of the extension holds `null` for a hidden slot. */
const sliderSchema = z.object({ name: z.string().nullish() }).nullable();
export const controlNetModuleListSchema = z.object({
  module_list: z.array(z.string()),
  /** Absent on Forge's built-in ControlNet. */
  module_detail: z
    .record(z.string(), z.object({ model_free: z.boolean().nullish(), sliders: z.array(sliderSchema).nullish() }))
    .nullish(),
});

/** `POST /controlnet/detect`; Forge may put a text in `images` when the result is not an image. */
export const detectResponseSchema = z.object({ images: z.array(z.string()).nullish() });

/**
 * The error body of the webui's exception handler: `{error, detail, body, errors}`; FastAPI's own validation
 * answer has `detail` as a list of `{loc, msg}`.
 */
export const errorBodySchema = z.object({
  error: z.string().nullish(),
  detail: z.unknown().optional(),
  errors: z.string().nullish(),
});
