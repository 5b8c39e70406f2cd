import { type EngineControlNet, EngineError, type EngineJob, type PreprocessOptions, withLoraTags } from '../engine.js';

/** The request bodies of our jobs, in the field names of modules/api/models.py and sd-webui-controlnet. */

/** A1111 ControlNet's control_mode strings, indexed by our ControlMode. */
const CONTROL_MODES = ['Balanced', 'My prompt is more important', 'ControlNet is more important'] as const;

/** The txt2img / img2img request of a job. */
export function generateBody(job: EngineJob, taskId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    // A1111 reads LoRAs from the prompt text only.
    prompt: withLoraTags(job.prompt, job.loras ?? []),
    negative_prompt: job.negativePrompt,
    seed: job.seed,
    sampler_name: job.sampler,
    steps: job.steps,
    cfg_scale: job.cfgScale,
    width: job.width,
    height: job.height,
    batch_size: job.batchSize,
    n_iter: 1,
    override_settings: { sd_model_checkpoint: job.checkpoint },
    override_settings_restore_afterwards: true,
    send_images: true,
    save_images: false,
    force_task_id: taskId,
  };
  if (job.mode === 'img2img' || job.mode === 'inpaint') {
    if (!job.initImage)
      throw new EngineError(job.mode === 'inpaint' ? '局部重绘需要一张原图' : '图生图需要一张原图', false);
    body.init_images = [job.initImage.toString('base64')];
    body.denoising_strength = job.denoisingStrength ?? 0.75;
    body.include_init_images = false;
  }
  if (job.mode === 'inpaint') {
    if (!job.mask) throw new EngineError('局部重绘需要一张蒙版', false);
    body.mask = job.mask.toString('base64');
    // White is repainted (our mask's meaning), starting from the original pixels as the A1111 UI does by default.
    body.inpainting_mask_invert = 0;
    body.inpainting_fill = 1;
    body.mask_blur = 4;
    body.inpaint_full_res = false;
  }
  if (job.controlNets?.length) {
    body.alwayson_scripts = { controlnet: { args: job.controlNets.map(controlNetUnit) } };
  }
  return body;
}

/** One unit of `alwayson_scripts.controlnet.args` (sd-webui-controlnet external_code.ControlNetUnit). */
function controlNetUnit(unit: EngineControlNet): Record<string, unknown> {
  return {
    enabled: true,
    module: unit.module,
    model: unit.model,
    weight: unit.weight ?? 1,
    image: unit.image.toString('base64'),
    resize_mode: 'Crop and Resize',
    processor_res: unit.processorRes ?? -1,
    threshold_a: unit.thresholdA ?? -1,
    threshold_b: unit.thresholdB ?? -1,
    guidance_start: unit.guidanceStart ?? 0,
    guidance_end: unit.guidanceEnd ?? 1,
    control_mode: CONTROL_MODES[unit.controlMode ?? 0] ?? CONTROL_MODES[0],
    pixel_perfect: false,
  };
}

/** The `/sdapi/v1/extra-single-image` request that upscales an image by a factor with an upscaler model. */
export function extrasBody(image: Buffer, factor: number, upscaler: string): Record<string, unknown> {
  return {
    image: image.toString('base64'),
    resize_mode: 0,
    upscaling_resize: factor,
    upscaler_1: upscaler,
    show_extras_results: true,
  };
}

/** The `/controlnet/detect` request of one preprocessor on one image. */
export function detectBody(
  controlnetModule: string,
  image: Buffer,
  options: PreprocessOptions,
): Record<string, unknown> {
  // Absent tuning values are left out, so each server applies its own default (Forge has no -1 convention).
  const body: Record<string, unknown> = {
    controlnet_module: controlnetModule,
    controlnet_input_images: [image.toString('base64')],
  };
  if (options.processorRes !== undefined && options.processorRes > 0)
    body.controlnet_processor_res = Math.round(options.processorRes);
  if (options.thresholdA !== undefined && options.thresholdA >= 0) body.controlnet_threshold_a = options.thresholdA;
  if (options.thresholdB !== undefined && options.thresholdB >= 0) body.controlnet_threshold_b = options.thresholdB;
  return body;
}
