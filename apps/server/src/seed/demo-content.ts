import type { FormConfigItem, GenerateMode, PromptGroupItem } from '@huafang/contracts';
import { BUILTIN_ENGINE_KIND, BUILTIN_ENGINE_LABEL } from '../engines/builtin/builtin-engine.js';
import { BUILTIN_LORAS } from '../engines/builtin/catalog.js';
import { type PublishedTemplate, toStep } from '../features/template/template.service.js';
import { newId, nowIso } from '../platform/ids.js';
import type { Repositories } from '../repositories.js';
import {
  COMMON_NEGATIVE,
  controlNetField,
  denoiseField,
  initImageField,
  seedField,
  txt2imgForm,
  words,
} from './form-builders.js';

/**
 * Demo models: every one runs on the built-in demo engine, whose checkpoints name its painting styles. They are no
 * Stable Diffusion checkpoints, so their base model says so instead of naming one they are not.
 */
const MODEL_GROUPS = [
  {
    name: '写实',
    models: [
      { modelName: '写实人像', baseModel: BUILTIN_ENGINE_LABEL, checkpoint: 'builtin-realistic' },
      { modelName: '电商摄影', baseModel: BUILTIN_ENGINE_LABEL, checkpoint: 'builtin-product' },
    ],
  },
  {
    name: '动漫',
    models: [
      { modelName: '二次元插画', baseModel: BUILTIN_ENGINE_LABEL, checkpoint: 'builtin-anime' },
      { modelName: 'Q版萌系', baseModel: BUILTIN_ENGINE_LABEL, checkpoint: 'builtin-chibi' },
    ],
  },
  {
    name: '国风',
    models: [
      { modelName: '水墨国风', baseModel: BUILTIN_ENGINE_LABEL, checkpoint: 'builtin-ink' },
      { modelName: '工笔重彩', baseModel: BUILTIN_ENGINE_LABEL, checkpoint: 'builtin-gongbi' },
    ],
  },
];

type StepSeed = {
  name: string;
  mode: GenerateMode;
  useParentImage?: boolean;
  prompt: PromptGroupItem[];
  negative?: PromptGroupItem[];
  form: (models: ModelLookup) => FormConfigItem[];
  parameters?: Record<string, unknown>;
};
type TemplateSeed = { name: string; description: string; model: string; steps: StepSeed[] };
type TaskSeed = { name: string; description: string; templates: TemplateSeed[] };
type CategorySeed = { name: string; description: string; tasks: TaskSeed[] };
type ModelLookup = { groupIds: string[] };

const generate = (prompt: PromptGroupItem[], extra: Partial<StepSeed> = {}): StepSeed => ({
  name: '生成',
  mode: 'txt2img',
  prompt,
  form: (m) => txt2imgForm(m.groupIds),
  ...extra,
});
const upscale = (): StepSeed => ({
  name: '高清放大',
  mode: 'upscale',
  useParentImage: true,
  prompt: words(['高清', 'highres'], ['细节丰富', 'highly detailed']),
  form: () => [denoiseField(0.3), seedField()],
  parameters: { scale: 2 },
});
const withControlNet =
  (module: string, model: string, imageText: string) =>
  (m: ModelLookup): FormConfigItem[] => [...txt2imgForm(m.groupIds), controlNetField(module, model, imageText)];

const CATEGORIES: CategorySeed[] = [
  {
    name: '电商设计',
    description: '商品主图、促销海报，一键出图',
    tasks: [
      {
        name: '电商主图',
        description: '干净的白底图与有氛围的场景图',
        templates: [
          {
            name: '白底产品图',
            description: '纯白背景、柔和棚拍光，适合平台主图',
            model: '电商摄影',
            steps: [
              generate(
                words(
                  ['白底产品图', 'product photo on white background'],
                  ['棚拍光', 'studio lighting'],
                  ['高清', 'highres'],
                ),
              ),
            ],
          },
          {
            name: '场景化主图',
            description: '先生成场景图，再高清放大',
            model: '电商摄影',
            steps: [
              generate(
                words(
                  ['产品展示', 'product showcase'],
                  ['大理石台面', 'marble podium'],
                  ['自然光', 'natural lighting'],
                ),
              ),
              upscale(),
            ],
          },
        ],
      },
      {
        name: '海报设计',
        description: '促销、节日海报的背景与主视觉',
        templates: [
          {
            name: '促销海报',
            description: '高饱和、强对比的大促主视觉',
            model: '电商摄影',
            steps: [
              generate(words(['促销海报', 'sale poster'], ['红色', 'red'], ['金色', 'gold'], ['喜庆', 'festive'])),
            ],
          },
          {
            name: '节日海报',
            description: '春节、中秋等传统节日氛围',
            model: '工笔重彩',
            steps: [generate(words(['春节', 'chinese new year'], ['灯笼', 'red lanterns'], ['烟花', 'fireworks']))],
          },
        ],
      },
    ],
  },
  {
    name: '人像摄影',
    description: '证件照、形象照与个性头像',
    tasks: [
      {
        name: '证件照',
        description: '上传生活照，生成标准证件照',
        templates: [
          {
            name: '蓝底证件照',
            description: '以你的照片为底稿，换成蓝底正装',
            model: '写实人像',
            steps: [
              {
                name: '生成',
                mode: 'img2img',
                prompt: words(['证件照', 'id photo'], ['蓝色背景', 'blue background'], ['正装', 'formal suit']),
                form: (m) => [initImageField('上传照片'), denoiseField(0.45), ...txt2imgForm(m.groupIds)],
              },
            ],
          },
          {
            name: '职业形象照',
            description: '商务风格的半身形象照',
            model: '写实人像',
            steps: [
              generate(
                words(
                  ['职业形象照', 'professional headshot'],
                  ['商务正装', 'business attire'],
                  ['浅景深', 'depth of field'],
                ),
              ),
            ],
          },
        ],
      },
      {
        name: '头像生成',
        description: '二次元、3D 卡通等风格头像',
        templates: [
          {
            name: '二次元头像',
            description: '日系动漫风格，先出图再放大',
            model: '二次元插画',
            steps: [
              generate(words(['动漫风格', 'anime style'], ['少女', '1girl'], ['看向镜头', 'looking at viewer'])),
              upscale(),
            ],
          },
          {
            name: '3D 卡通头像',
            description: '皮克斯风格的立体卡通形象',
            model: 'Q版萌系',
            steps: [generate(words(['3D渲染', '3d render'], ['皮克斯风格', 'pixar style'], ['可爱', 'cute']))],
          },
        ],
      },
    ],
  },
  {
    name: '国风插画',
    description: '水墨、工笔与国潮',
    tasks: [
      {
        name: '国风插画',
        description: '传统绘画语言的插画',
        templates: [
          {
            name: '水墨山水',
            description: '留白与晕染，远山云雾',
            model: '水墨国风',
            steps: [
              generate(
                words(
                  ['水墨画', 'ink wash painting'],
                  ['山水', 'mountains and rivers'],
                  ['云雾', 'mist'],
                  ['留白', 'negative space'],
                ),
              ),
            ],
          },
          {
            name: '工笔花鸟',
            description: '细腻勾线与重彩设色',
            model: '工笔重彩',
            steps: [generate(words(['工笔画', 'gongbi painting'], ['牡丹', 'peony'], ['小鸟', 'small bird']))],
          },
        ],
      },
      {
        name: '国潮设计',
        description: '传统元素与潮流配色',
        templates: [
          {
            name: '国潮插画',
            description: '国潮主视觉，生成后高清放大',
            model: '工笔重彩',
            steps: [
              generate(words(['国潮', 'guochao style'], ['祥云', 'auspicious clouds'], ['鲜艳色彩', 'vibrant colors'])),
              upscale(),
            ],
          },
        ],
      },
    ],
  },
  {
    name: '线稿与草图',
    description: '用线稿、草图和空间结构控制画面',
    tasks: [
      {
        name: '线稿上色',
        description: '保留线稿结构，自动上色',
        templates: [
          {
            name: '线稿上色',
            description: '上传黑白线稿，按线稿结构上色',
            model: '二次元插画',
            steps: [
              generate(words(['上色', 'colorful'], ['动漫风格', 'anime style'], ['干净线条', 'clean lineart']), {
                form: withControlNet('lineart', 'control_v11p_sd15s2_lineart_anime', '线稿控制'),
              }),
            ],
          },
          {
            name: '草图成画',
            description: '随手草图经 Canny 边缘控制变成完整画面',
            model: '写实人像',
            steps: [
              generate(words(['精致插画', 'detailed illustration'], ['柔和光线', 'soft lighting']), {
                form: withControlNet('canny', 'control_v11p_sd15_canny', '草图控制'),
              }),
            ],
          },
        ],
      },
      {
        name: '建筑与空间',
        description: '按照空间结构生成室内外效果图',
        templates: [
          {
            name: '室内设计',
            description: '上传房间照片，保留空间深度换风格',
            model: '写实人像',
            steps: [
              generate(
                words(
                  ['室内设计', 'interior design'],
                  ['北欧风格', 'scandinavian style'],
                  ['自然光', 'natural lighting'],
                ),
                {
                  form: withControlNet('depth', 'control_v11f1p_sd15_depth', '空间结构控制'),
                },
              ),
            ],
          },
        ],
      },
    ],
  },
];

/** Seeds the demo model menu and task tree once; if admins already have content, nothing is touched. */
export async function seedDemoTasks(repos: Pick<Repositories, 'models' | 'tasks' | 'templates'>): Promise<void> {
  const { models: modelsRepo, tasks, templates } = repos;
  if ((await modelsRepo.countGroups()) > 0 || (await tasks.countOfficial()) > 0) return;

  const modelIds = new Map<string, string>();
  const groupIds: string[] = [];
  for (const [groupSort, group] of MODEL_GROUPS.entries()) {
    const groupId = newId();
    groupIds.push(groupId);
    await modelsRepo.insertGroup({ id: groupId, name: group.name, sort: groupSort });
    for (const [sort, m] of group.models.entries()) {
      const id = newId();
      modelIds.set(m.modelName, id);
      await modelsRepo.insertModel({
        id,
        group_id: groupId,
        model_name: m.modelName,
        cover: null,
        base_model: m.baseModel,
        engine: BUILTIN_ENGINE_KIND,
        checkpoint: m.checkpoint,
        enabled: 1,
        sort,
      });
    }
  }

  const now = nowIso();
  const node = (
    id: string,
    parentId: string | null,
    kind: string,
    name: string,
    description: string,
    sort: number,
  ) => ({
    id,
    parent_id: parentId,
    kind,
    name,
    icon: null,
    cover: null,
    description,
    published: 1,
    sort,
    owner_id: null,
    source_id: null,
    created_at: now,
    updated_at: now,
  });
  for (const [categorySort, category] of CATEGORIES.entries()) {
    const categoryId = newId();
    await tasks.insert(node(categoryId, null, 'category', category.name, category.description, categorySort));
    for (const [taskSort, task] of category.tasks.entries()) {
      const taskId = newId();
      await tasks.insert(node(taskId, categoryId, 'task', task.name, task.description, taskSort));
      for (const [templateSort, template] of task.templates.entries()) {
        const templateId = newId();
        await templates.insert({
          id: templateId,
          task_id: taskId,
          name: template.name,
          cover: null,
          description: template.description,
          status: 'published',
          visibility: 'public',
          version: 1,
          sort: templateSort,
          owner_id: null,
          created_at: now,
          updated_at: now,
        });
        const modelId = modelIds.get(template.model);
        const steps = template.steps.map((step, index) => ({
          id: newId(),
          template_id: templateId,
          step_index: index,
          name: step.name,
          generate_mode: step.mode,
          use_parent_image: step.useParentImage ? 1 : 0,
          prompt_group: JSON.stringify(step.prompt),
          negative_prompt_group: JSON.stringify(step.negative ?? COMMON_NEGATIVE),
          parameters: JSON.stringify({ ...(index === 0 ? { modelId } : {}), ...step.parameters }),
          form_config: JSON.stringify(step.form({ groupIds })),
        }));
        await templates.replaceSteps(templateId, steps);
        const published: PublishedTemplate = {
          name: template.name,
          cover: null,
          description: template.description,
          version: 1,
          taskStepList: steps.map(toStep),
        };
        await templates.publish(
          templateId,
          JSON.stringify(published),
          steps.map((s) => s.id),
        );
      }
    }
  }
}

/**
 * The built-in engine's demo LoRAs as enabled styles for everyone (family 其他, as the demo models), once: if admins
 * already have LoRAs, nothing is touched.
 */
export async function seedDemoLoras(repos: Pick<Repositories, 'loras'>): Promise<void> {
  if ((await repos.loras.list()).length > 0) return;
  const now = nowIso();
  for (const [sort, lora] of BUILTIN_LORAS.entries()) {
    await repos.loras.insert({
      id: newId(),
      name: lora.name,
      lora_name: lora.title,
      engine: BUILTIN_ENGINE_KIND,
      style_group: lora.styleGroup,
      cover: null,
      description: lora.description,
      family: '其他',
      trigger_words: JSON.stringify(lora.triggerWords),
      default_weight: 0.8,
      min_weight: 0,
      max_weight: 1.5,
      enabled: 1,
      sort,
      access: JSON.stringify({ planIds: [] }),
      hash: null,
      created_at: now,
      updated_at: now,
    });
  }
}
