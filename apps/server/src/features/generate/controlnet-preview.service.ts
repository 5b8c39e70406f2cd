import type { ControlnetPreviewBody, UploadResult } from '@huafang/contracts';
import { EngineError } from '../../engines/engine.js';
import { fail } from '../../platform/errors.js';
import type { BackendOptions } from '../backends/backend-catalog.js';
import type { FileService } from '../files/file.service.js';

/**
 * Runs a ControlNet preprocessor on the user's reference image and keeps the map as the user's file: on the
 * built-in engine when it has the preprocessor, else on a registered backend that offers it.
 */
export class ControlnetPreviewService {
  constructor(
    private readonly backendOptions: BackendOptions,
    private readonly files: FileService,
  ) {}

  async preview(userId: string, body: ControlnetPreviewBody): Promise<UploadResult> {
    const engine = await this.backendOptions.preprocessorEngine(body.controlnetModule);
    if (!engine) throw fail(`不支持的预处理器：${body.controlnetModule}`);
    const image = await this.files.readOwned(userId, body.fileId, '参考图');
    try {
      const map = await engine.preprocess(body.controlnetModule, image, {
        processorRes: body.processorRes,
        thresholdA: body.thresholdA,
        thresholdB: body.thresholdB,
      });
      return await this.files.uploadImage(userId, map);
    } catch (err) {
      // A backend's refusal or outage reads as the Chinese message it carries, not as a server error.
      if (err instanceof EngineError) throw fail(err.message);
      throw err;
    }
  }
}
