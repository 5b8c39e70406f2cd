import type { ControlnetPreviewBody, UploadResult } from '@huafang/contracts';
import type { InferenceEngine } from '../../engines/engine.js';
import { fail } from '../../platform/errors.js';
import type { FileService } from '../files/file.service.js';

/** Runs a ControlNet preprocessor on the user's reference image and keeps the map as the user's file. */
export class ControlnetPreviewService {
  constructor(
    private readonly engine: InferenceEngine,
    private readonly files: FileService,
  ) {}

  async preview(userId: string, body: ControlnetPreviewBody): Promise<UploadResult> {
    const modules = await this.engine.listControlNetModules();
    if (!modules.some((m) => m.value === body.controlnetModule)) {
      throw fail(`不支持的预处理器：${body.controlnetModule}`);
    }
    const image = await this.files.readOwned(userId, body.fileId, '参考图');
    const map = await this.engine.preprocess(body.controlnetModule, image, {
      processorRes: body.processorRes,
      thresholdA: body.thresholdA,
      thresholdB: body.thresholdB,
    });
    return this.files.uploadImage(userId, map);
  }
}
