import { type ComplianceSettings, complianceSettingsSchema, DEFAULT_COMPLIANCE_SETTINGS } from '@huafang/contracts';
import { z } from 'zod';
import { type Broadcast, topic } from '../../platform/broadcast/broadcast.js';
import { nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { AppConfigRepository } from '../app-config/app-config.repository.js';
import { labelledWebp } from './labelled-image.js';

/** 合规设置 is one app_configs row, its content the settings as JSON. */
const CONFIG_KEY = 'compliance';
/** How long a copy is trusted when a change notice from another API process could have been missed. */
const CACHE_MS = 60_000;

const complianceChanged = topic('compliance.changed', z.strictObject({}));

/**
 * The AIGC label settings and the labelling of images on their way out. Every image request reads the
 * settings, so API processes keep a copy, dropped when an admin saves (the bus tells every API process). A worker
 * hears no broadcasts, so it is built with `cache: false` and reads the row for each image it labels.
 * The producer (ContentProducer) is AIGC_PRODUCER's until an admin saves another; saving the same value keeps
 * following the variable, so a later change of AIGC_PRODUCER takes effect.
 */
export class ComplianceService {
  private readonly configs: AppConfigRepository;
  private cached: { settings: ComplianceSettings; readAt: number } | null = null;
  private generation = 0;

  constructor(
    repos: Repositories,
    private readonly bus: Broadcast,
    private readonly cache: boolean,
    private readonly defaultProducer: string,
  ) {
    this.configs = repos.configs;
    bus.subscribe(complianceChanged, () => this.forget());
    bus.onGap(() => this.forget());
  }

  async settings(): Promise<ComplianceSettings> {
    const cached = this.cached;
    if (this.cache && this.bus.live && cached && Date.now() - cached.readAt < CACHE_MS) return cached.settings;
    const generation = this.generation;
    const row = await this.configs.find(CONFIG_KEY);
    // Fields added in later versions take their defaults until an admin saves.
    const defaults = { ...DEFAULT_COMPLIANCE_SETTINGS, producer: this.defaultProducer };
    const settings = row ? complianceSettingsSchema.parse({ ...defaults, ...storedSettings(row.content) }) : defaults;
    // A change heard while reading may not be in what was read: keep nothing then.
    if (generation === this.generation) this.cached = { settings, readAt: Date.now() };
    return settings;
  }

  async save(settings: ComplianceSettings): Promise<ComplianceSettings> {
    const { producer, ...rest } = settings;
    const kept = producer === this.defaultProducer ? rest : settings;
    await this.configs.upsert(CONFIG_KEY, '合规设置', JSON.stringify(kept), nowIso());
    await this.bus.publish(complianceChanged, {});
    return settings;
  }

  /** A thumbnail or live preview as it leaves the service; see labelledWebp. */
  async labelledWebp(image: Buffer, produceId: string): Promise<Buffer> {
    return labelledWebp(image, { produceId, settings: await this.settings() });
  }

  private forget(): void {
    this.generation += 1;
    this.cached = null;
  }
}

/**
 * What an admin saved. Before AIGC_PRODUCER existed every save stored the built-in producer name with the rest;
 * that stored default is no choice of the admin's, so the variable takes its place.
 */
function storedSettings(content: string): Record<string, unknown> {
  const { producer, ...rest } = JSON.parse(content) as Record<string, unknown>;
  return producer === undefined || producer === DEFAULT_COMPLIANCE_SETTINGS.producer ? rest : { ...rest, producer };
}
