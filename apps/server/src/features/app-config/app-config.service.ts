import type { Agreement, AgreementType } from '@huafang/contracts';
import { notFound } from '../../platform/errors.js';
import { nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import { DEMO_AGREEMENTS } from './agreement-texts.js';
import type { AppConfigRepository } from './app-config.repository.js';

const agreementKey = (type: AgreementType) => `agreement.${type}`;

export class AppConfigService {
  private readonly configs: AppConfigRepository;

  constructor(repos: Repositories) {
    this.configs = repos.configs;
  }

  async agreement(type: AgreementType): Promise<Agreement> {
    const row = await this.configs.find(agreementKey(type));
    if (!row) throw notFound('协议内容尚未配置');
    return row;
  }

  async saveAgreement(type: AgreementType, agreement: Agreement): Promise<void> {
    await this.configs.upsert(agreementKey(type), agreement.title, agreement.content, nowIso());
  }

  async seedAgreements(): Promise<void> {
    for (const [type, text] of Object.entries(DEMO_AGREEMENTS) as [AgreementType, Agreement][]) {
      await this.configs.insertIfMissing(agreementKey(type), text.title, text.content, nowIso());
    }
  }
}
