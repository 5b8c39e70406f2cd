import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A test double of a ComfyUI server: real HTTP and WebSocket on 127.0.0.1, speaking the public API as
 * ComfyUI does (server.py, execution.py): graph validation with node_errors, one prompt at a time, events only
 * to the socket of the prompt's client_id, binary preview frames, /history written when a prompt ends, /view
 * bytes, multipart /upload/image. It "paints" flat-colour PNGs whose colour follows the seed.
 *
 * Like the real server (v0.3.10, ../shared/engines.md §4): output nodes run in an order fixed per start but
 * arbitrary (a shuffle seeded by `orderSeed`, random by default, so tests must not rely on batch order); a node
 * whose inputs did not change since the last prompt comes from cache (a repeated prompt sends execution_cached
 * listing every node, then executed for its outputs and execution_success, nothing else); previews are 512-px
 * JPEG frames and only with a `previewMethod`; /interrupt ignores prompt_id and stops whatever runs once the
 * current step is done; SaveImage PNGs carry the `prompt` text chunk and each extra_pnginfo key (`workflow`).
 */
export type ComfyUiDoubleOptions = {
  /** Delay of one sampler step (default 5 ms). */
  stepDelayMs?: number;
  checkpoints?: string[];
  controlNets?: string[];
  samplers?: string[];
  schedulers?: string[];
  /** When set, HTTP and WebSocket requests need `Authorization: Bearer <token>` (as a proxy in front would). */
  requireToken?: string;
  /** Also offer two comfyui_controlnet_aux preprocessors (LineArtPreprocessor, DepthAnythingPreprocessor). */
  auxPreprocessors?: boolean;
  /** Format SaveImage writes (default png); jpeg shows the adapter converting. */
  outputFormat?: 'png' | 'jpeg';
  /** Files in models/loras, as LoraLoader.lora_name lists them (default two SD1.5 LoRAs). */
  loras?: string[];
  /** Files in models/vae, as VAELoader.vae_name lists them. */
  vaes?: string[];
  /**
   * Seeds the order output nodes run in (ComfyUI builds it from a Python set: fixed per start, arbitrary).
   * Default: a random order per start.
   */
  orderSeed?: number;
  /** `--preview-method`: with none (the default) no preview frames are sent; otherwise a 512-px JPEG per step. */
  previewMethod?: 'none' | 'auto' | 'latent2rgb' | 'taesd';
  /** After an interrupt, the running step ends, then execution_interrupted comes this much later (default 500). */
  interruptDelayMs?: number;
};

export type RecordedPrompt = {
  promptId: string;
  clientId: string | null;
  graph: Record<string, DoubleNode>;
  /** `extra_data.extra_pnginfo` as sent (SaveImage writes each key as a PNG text chunk). */
  extraPngInfo?: Record<string, unknown>;
};
export type RecordedUpload = { name: string; subfolder: string; type: string; overwrite: boolean; bytes: Buffer };
export type SentMessage = { clientId: string | null; type: string; promptId?: string; node?: string };
export type DoubleNode = { class_type: string; inputs: Record<string, unknown> };

type Spec = [unknown, Record<string, unknown>?];
type NodeDef = {
  required: Record<string, Spec>;
  optional?: Record<string, Spec>;
  output: string[];
  outputNode?: boolean;
  category: string;
};
type Pic = { kind: 'IMAGE' | 'LATENT' | 'MASK'; width: number; height: number; batch: number; seed: number | null };
type Value = Pic | { kind: 'OTHER' };
type QueueItem = {
  number: number;
  promptId: string;
  graph: Record<string, DoubleNode>;
  clientId: string | null;
  extraPngInfo?: Record<string, unknown>;
};
type HistoryImage = { filename: string; subfolder: string; type: string };
type Running = { item: QueueItem; interrupted: boolean };
type QueueExtra = { client_id: string | null; extra_pnginfo?: Record<string, unknown> };
/** What a node produced, kept by its signature (class and inputs, links replaced by their sources' signatures). */
type Cached = { values: Value[]; images?: HistoryImage[] };

class Interrupted extends Error {}
class NodeFailure extends Error {
  constructor(
    readonly nodeId: string,
    readonly nodeType: string,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_SAMPLERS = [
  'euler',
  'euler_cfg_pp',
  'euler_ancestral',
  'euler_ancestral_cfg_pp',
  'heun',
  'heunpp2',
  'dpm_2',
  'dpm_2_ancestral',
  'lms',
  'dpm_fast',
  'dpm_adaptive',
  'dpmpp_2s_ancestral',
  'dpmpp_sde',
  'dpmpp_sde_gpu',
  'dpmpp_2m',
  'dpmpp_2m_sde',
  'dpmpp_2m_sde_gpu',
  'dpmpp_3m_sde',
  'ddpm',
  'lcm',
  'ipndm',
  'deis',
  'res_multistep',
  'ddim',
  'uni_pc',
  'uni_pc_bh2',
];
const DEFAULT_SCHEDULERS = [
  'simple',
  'sgm_uniform',
  'karras',
  'exponential',
  'ddim_uniform',
  'beta',
  'normal',
  'linear_quadratic',
  'kl_optimal',
];
const UPSCALE_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos'];

const INT = (value: number, min: number, max: number, step = 1): Spec => ['INT', { default: value, min, max, step }];
const FLOAT = (value: number, min: number, max: number, step = 0.01): Spec => [
  'FLOAT',
  { default: value, min, max, step },
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isLink = (value: unknown): value is [string, number] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'number';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A colour that follows the seed (and the position in a latent batch). */
export function seedColour(seed: number | null, index: number): { r: number; g: number; b: number } {
  const s = ((seed ?? 7) * 2654435761 + index * 40503) >>> 0;
  return { r: s & 0xff, g: (s >>> 8) & 0xff, b: (s >>> 16) & 0xff };
}

/** LoRA and VAE loaders as ComfyUI's nodes.py declares them; an unknown `lora_name` fails validation (value_not_in_list). */
function loaderDefs(options: ComfyUiDoubleOptions): Record<string, NodeDef> {
  return {
    LoraLoader: {
      required: {
        model: ['MODEL'],
        clip: ['CLIP'],
        lora_name: [options.loras ?? ['sd15/ink_wash.safetensors', 'sd15/neon_glow.safetensors']],
        strength_model: FLOAT(1, -100, 100, 0.01),
        strength_clip: FLOAT(1, -100, 100, 0.01),
      },
      output: ['MODEL', 'CLIP'],
      category: 'loaders',
    },
    VAELoader: {
      required: { vae_name: [options.vaes ?? ['vae-ft-mse-840000-ema-pruned.safetensors']] },
      output: ['VAE'],
      category: 'loaders',
    },
  };
}

export class ComfyUiDouble {
  readonly events = new EventEmitter();
  readonly prompts: RecordedPrompt[] = [];
  readonly uploads: RecordedUpload[] = [];
  /** Prompt ids of POST /interrupt bodies (null for a bare interrupt). */
  readonly interrupts: (string | null)[] = [];
  /** Prompt ids of POST /queue {delete}. */
  readonly deletes: string[] = [];
  readonly requests: { method: string; path: string; authorization?: string }[] = [];
  /** Every JSON event and preview frame sent, with the clientId it went to (null = broadcast). */
  readonly sent: SentMessage[] = [];
  url = '';

  private readonly server = createServer((req, res) => void this.route(req, res));
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Map<string, WebSocket>();
  private readonly connections = new Set<Socket>();
  private readonly files = new Map<string, { bytes: Buffer; width: number; height: number }>();
  private readonly history = new Map<string, Record<string, unknown>>();
  private readonly pending: QueueItem[] = [];
  private running: Running | null = null;
  private counter = 0;
  private outputCounter = 0;
  private paused = false;
  private closed = false;
  private stepDelayMs: number;
  private readonly checkpoints: string[];
  private readonly controlNets: string[];
  private readonly samplers: string[];
  private readonly schedulers: string[];
  private readonly orderSeed: number;
  /** The outputs cache: what the nodes of the last prompt produced, by signature. */
  private cache = new Map<string, Cached>();
  // Controls set by tests.
  private rejectNext: Record<string, unknown> | null = null;
  private failNext: { message: string; classType: string } | null = null;
  private dropNext: { afterSteps: number } | null = null;
  private httpFailures: { path: string; status: number; times: number }[] = [];
  private hangPaths: string[] = [];
  private socketsRefused = false;
  private readonly hanging = new Set<ServerResponse>();

  constructor(private readonly options: ComfyUiDoubleOptions = {}) {
    this.stepDelayMs = options.stepDelayMs ?? 5;
    this.checkpoints = options.checkpoints ?? ['sd15/dreamshaper_8.safetensors', 'sdxl/juggernautXL_v9.safetensors'];
    this.controlNets = options.controlNets ?? ['control_v11p_sd15_canny.pth', 'control_v11f1p_sd15_depth.pth'];
    this.samplers = options.samplers ?? DEFAULT_SAMPLERS;
    this.schedulers = options.schedulers ?? DEFAULT_SCHEDULERS;
    this.orderSeed = options.orderSeed ?? Math.floor(Math.random() * 2 ** 32);
    this.server.on('connection', (socket) => {
      this.connections.add(socket);
      socket.on('close', () => this.connections.delete(socket));
    });
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket as Socket, head));
  }

  async listen(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.running) this.running.interrupted = true;
    for (const res of this.hanging) res.destroy();
    for (const socket of this.wss.clients) socket.terminate();
    this.wss.close();
    for (const socket of this.connections) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- controls ----

  /** The next POST /prompt answers 400 with these node_errors (or a default one). */
  rejectNextPrompt(nodeErrors?: Record<string, unknown>): void {
    this.rejectNext = nodeErrors ?? {
      '4': {
        errors: [
          {
            type: 'value_not_in_list',
            message: 'Value not in list',
            details: "ckpt_name: 'missing.safetensors' not in []",
            extra_info: {},
          },
        ],
        dependent_outputs: ['9'],
        class_type: 'CheckpointLoaderSimple',
      },
    };
  }

  /** The next prompt fails with execution_error when it reaches a node of this class (default KSampler). */
  failNextExecution(message = 'CUDA out of memory. Tried to allocate 2.00 GiB', classType = 'KSampler'): void {
    this.failNext = { message, classType };
  }

  /** The socket of the next prompt's client is cut after this many sampler steps. */
  dropSocketDuringNextRun(afterSteps = 2): void {
    this.dropNext = { afterSteps };
  }

  /** The next `times` requests whose path starts with `path` answer with this status (default 500). */
  failRequests(path = '/', status = 500, times = 1): void {
    this.httpFailures.push({ path, status, times });
  }

  /** Requests whose path starts with `path` never answer (until stopHanging or close). */
  hangRequests(path = '/'): void {
    this.hangPaths.push(path);
  }

  stopHanging(): void {
    this.hangPaths = [];
  }

  /** WebSocket upgrades answer 503 (a proxy that does not pass sockets); HTTP keeps working. */
  refuseSockets(): void {
    this.socketsRefused = true;
  }

  /** Sampler steps take this long from now on (a slow GPU, or a run a test wants to stop part-way). */
  setStepDelay(ms: number): void {
    this.stepDelayMs = ms;
  }

  /** While paused, queued prompts stay pending. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    void this.pump();
  }

  queue(): { running: string[]; pending: string[] } {
    return {
      running: this.running ? [this.running.item.promptId] : [],
      pending: this.pending.map((item) => item.promptId),
    };
  }

  /** Resolves when the event (queued, started, finished) is next emitted; gives its prompt id. */
  async next(event: 'queued' | 'started' | 'finished'): Promise<string> {
    const [promptId] = await once(this.events, event);
    return promptId as string;
  }

  // ---- node catalogue (/object_info) ----

  private nodeDefs(): Record<string, NodeDef> {
    const images = [...this.files.keys()].filter((key) => key.startsWith('input//')).map((key) => key.slice(7));
    const defs: Record<string, NodeDef> = {
      CheckpointLoaderSimple: {
        required: { ckpt_name: [this.checkpoints] },
        output: ['MODEL', 'CLIP', 'VAE'],
        category: 'loaders',
      },
      CLIPTextEncode: {
        required: { text: ['STRING', { multiline: true, dynamicPrompts: true }], clip: ['CLIP'] },
        output: ['CONDITIONING'],
        category: 'conditioning',
      },
      EmptyLatentImage: {
        required: { width: INT(512, 16, 16384, 8), height: INT(512, 16, 16384, 8), batch_size: INT(1, 1, 4096) },
        output: ['LATENT'],
        category: 'latent',
      },
      KSampler: {
        required: {
          model: ['MODEL'],
          seed: INT(0, 0, 2 ** 64 - 1),
          steps: INT(20, 1, 10000),
          cfg: FLOAT(8, 0, 100, 0.1),
          sampler_name: [this.samplers],
          scheduler: [this.schedulers],
          positive: ['CONDITIONING'],
          negative: ['CONDITIONING'],
          latent_image: ['LATENT'],
          denoise: FLOAT(1, 0, 1),
        },
        output: ['LATENT'],
        category: 'sampling',
      },
      VAEDecode: { required: { samples: ['LATENT'], vae: ['VAE'] }, output: ['IMAGE'], category: 'latent' },
      VAEEncode: { required: { pixels: ['IMAGE'], vae: ['VAE'] }, output: ['LATENT'], category: 'latent' },
      SaveImage: {
        required: { images: ['IMAGE'], filename_prefix: ['STRING', { default: 'ComfyUI' }] },
        output: [],
        outputNode: true,
        category: 'image',
      },
      PreviewImage: { required: { images: ['IMAGE'] }, output: [], outputNode: true, category: 'image' },
      LoadImage: {
        required: { image: [images, { image_upload: true }] },
        output: ['IMAGE', 'MASK'],
        category: 'image',
      },
      LoadImageMask: {
        required: { image: [images, { image_upload: true }], channel: [['alpha', 'red', 'green', 'blue']] },
        output: ['MASK'],
        category: 'mask',
      },
      SetLatentNoiseMask: {
        required: { samples: ['LATENT'], mask: ['MASK'] },
        output: ['LATENT'],
        category: 'latent/inpaint',
      },
      RepeatLatentBatch: {
        required: { samples: ['LATENT'], amount: INT(1, 1, 64) },
        output: ['LATENT'],
        category: 'latent/batch',
      },
      ImageScale: {
        required: {
          image: ['IMAGE'],
          upscale_method: [UPSCALE_METHODS],
          width: INT(512, 0, 16384),
          height: INT(512, 0, 16384),
          crop: [['disabled', 'center']],
        },
        output: ['IMAGE'],
        category: 'image/upscaling',
      },
      ImageScaleBy: {
        required: { image: ['IMAGE'], upscale_method: [UPSCALE_METHODS], scale_by: FLOAT(1, 0.01, 8) },
        output: ['IMAGE'],
        category: 'image/upscaling',
      },
      ImageInvert: { required: { image: ['IMAGE'] }, output: ['IMAGE'], category: 'image' },
      Canny: {
        required: { image: ['IMAGE'], low_threshold: FLOAT(0.4, 0.01, 0.99), high_threshold: FLOAT(0.8, 0.01, 0.99) },
        output: ['IMAGE'],
        category: 'image/preprocessors',
      },
      ControlNetLoader: {
        required: { control_net_name: [this.controlNets] },
        output: ['CONTROL_NET'],
        category: 'loaders',
      },
      ControlNetApplyAdvanced: {
        required: {
          positive: ['CONDITIONING'],
          negative: ['CONDITIONING'],
          control_net: ['CONTROL_NET'],
          image: ['IMAGE'],
          strength: FLOAT(1, 0, 10),
          start_percent: FLOAT(0, 0, 1, 0.001),
          end_percent: FLOAT(1, 0, 1, 0.001),
        },
        optional: { vae: ['VAE'] },
        output: ['CONDITIONING', 'CONDITIONING'],
        category: 'conditioning/controlnet',
      },
    };
    if (this.options.auxPreprocessors) {
      // comfyui_controlnet_aux puts resolution and module options under optional.
      defs.LineArtPreprocessor = {
        required: { image: ['IMAGE'] },
        optional: { coarse: [['disable', 'enable'], { default: 'disable' }], resolution: INT(512, 64, 16384, 64) },
        output: ['IMAGE'],
        category: 'ControlNet Preprocessors/Line Extractors',
      };
      defs.DepthAnythingPreprocessor = {
        required: {
          image: ['IMAGE'],
          ckpt_name: [
            ['depth_anything_vitl14.pth', 'depth_anything_vitb14.pth', 'depth_anything_vits14.pth'],
            { default: 'depth_anything_vitl14.pth' },
          ],
        },
        optional: { resolution: INT(512, 64, 16384, 64) },
        output: ['IMAGE'],
        category: 'ControlNet Preprocessors/Normal and Depth Estimators',
      };
    }
    Object.assign(defs, loaderDefs(this.options));
    return defs;
  }

  private objectInfo(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(this.nodeDefs())) {
      out[name] = {
        input: { required: def.required, ...(def.optional ? { optional: def.optional } : {}) },
        input_order: { required: Object.keys(def.required), optional: Object.keys(def.optional ?? {}) },
        output: def.output,
        output_is_list: def.output.map(() => false),
        output_name: def.output,
        name,
        display_name: name,
        description: '',
        python_module: 'nodes',
        category: def.category,
        output_node: def.outputNode ?? false,
      };
    }
    return out;
  }

  // ---- HTTP ----

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // ComfyUI serves every route under /api too.
    const path = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : url.pathname;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, authorization: req.headers.authorization });
    const body = await readBody(req);
    try {
      if (this.options.requireToken && req.headers.authorization !== `Bearer ${this.options.requireToken}`) {
        return sendJson(res, 401, { error: 'unauthorized' });
      }
      if (this.hangPaths.some((prefix) => path.startsWith(prefix))) {
        this.hanging.add(res);
        return;
      }
      const failure = this.httpFailures.find((f) => f.times > 0 && path.startsWith(f.path));
      if (failure) {
        failure.times--;
        res.writeHead(failure.status, { 'content-type': 'text/plain' });
        res.end('500: Internal Server Error');
        return;
      }
      await this.handle(method, path, url, req, body, res);
    } catch (error) {
      sendJson(res, 500, { error: String(error) });
    }
  }

  private async handle(
    method: string,
    path: string,
    url: URL,
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
  ): Promise<void> {
    if (method === 'GET' && path === '/object_info') return sendJson(res, 200, this.objectInfo());
    if (method === 'GET' && path.startsWith('/object_info/')) {
      const name = decodeURIComponent(path.slice('/object_info/'.length));
      const info = this.objectInfo()[name];
      return sendJson(res, 200, info ? { [name]: info } : {});
    }
    if (method === 'GET' && path === '/system_stats') {
      // As v0.3.10 run with --cpu from a source archive (version unknown).
      const ram = 16_624_349_184;
      return sendJson(res, 200, {
        system: {
          os: 'posix',
          ram_total: ram,
          ram_free: 9_876_543_488,
          comfyui_version: 'unknown',
          python_version: '3.12.3 (main, Nov  6 2024, 18:32:19) [GCC 13.2.0]',
          pytorch_version: '2.5.1+cpu',
          embedded_python: false,
          argv: ['main.py', '--cpu', '--listen', '127.0.0.1'],
        },
        devices: [
          {
            name: 'cpu',
            type: 'cpu',
            index: null,
            vram_total: ram,
            vram_free: 9_876_543_488,
            torch_vram_total: ram,
            torch_vram_free: 9_876_543_488,
          },
        ],
      });
    }
    if (path === '/queue' && method === 'GET') {
      const entry = (item: QueueItem) => [
        item.number,
        item.promptId,
        item.graph,
        this.extraOf(item),
        this.outputNodes(item.graph),
      ];
      return sendJson(res, 200, {
        queue_running: this.running ? [entry(this.running.item)] : [],
        queue_pending: this.pending.map(entry),
      });
    }
    if (path === '/queue' && method === 'POST') {
      const json = parseJson(body);
      if (isRecord(json) && Array.isArray(json.delete)) {
        for (const id of json.delete) {
          if (typeof id !== 'string') continue;
          this.deletes.push(id);
          const index = this.pending.findIndex((item) => item.promptId === id);
          if (index >= 0) this.pending.splice(index, 1);
        }
        this.broadcastStatus();
      }
      if (isRecord(json) && json.clear === true) this.pending.length = 0;
      res.writeHead(200).end();
      return;
    }
    if (path === '/interrupt' && method === 'POST') {
      const json = parseJson(body);
      const promptId = isRecord(json) && typeof json.prompt_id === 'string' ? json.prompt_id : null;
      this.interrupts.push(promptId);
      // ComfyUI v0.3.x ignores prompt_id: whatever runs is stopped (nothing happens when nothing runs).
      if (this.running) this.running.interrupted = true;
      res.writeHead(200).end();
      return;
    }
    if (path === '/prompt' && method === 'GET') {
      return sendJson(res, 200, { exec_info: { queue_remaining: this.pending.length + (this.running ? 1 : 0) } });
    }
    if (path === '/prompt' && method === 'POST') return this.postPrompt(body, res);
    if (path.startsWith('/history')) {
      const id = decodeURIComponent(path.slice('/history/'.length));
      if (path === '/history' || path === '/history/') return sendJson(res, 200, Object.fromEntries(this.history));
      const entry = this.history.get(id);
      return sendJson(res, 200, entry ? { [id]: entry } : {});
    }
    if (path === '/view' && method === 'GET') {
      const key = `${url.searchParams.get('type') ?? 'output'}/${url.searchParams.get('subfolder') ?? ''}/${url.searchParams.get('filename') ?? ''}`;
      const file = this.files.get(key);
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': key.endsWith('.jpg') ? 'image/jpeg' : 'image/png' });
      res.end(file.bytes);
      return;
    }
    if (path === '/upload/image' && method === 'POST') return this.upload(req, body, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('404: Not Found');
  }

  private async upload(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const image = form.get('image');
    if (!(image instanceof Blob) || !('name' in image)) return void res.writeHead(400).end();
    const bytes = Buffer.from(await image.arrayBuffer());
    const type = String(form.get('type') ?? 'input');
    const subfolder = String(form.get('subfolder') ?? '');
    const overwrite = form.get('overwrite') === 'true';
    let name = String(image.name);
    // ComfyUI keeps an existing file unless overwrite is set: the new one gets " (1)" appended.
    if (!overwrite) {
      const dot = name.lastIndexOf('.');
      for (let i = 1; this.files.has(`${type}/${subfolder}/${name}`); i++) {
        name = `${image.name.slice(0, dot)} (${i})${image.name.slice(dot)}`;
      }
    }
    let meta: sharp.Metadata;
    try {
      meta = await sharp(bytes).metadata();
    } catch {
      return void res.writeHead(400).end();
    }
    this.files.set(`${type}/${subfolder}/${name}`, { bytes, width: meta.width ?? 0, height: meta.height ?? 0 });
    this.uploads.push({ name, subfolder, type, overwrite, bytes });
    sendJson(res, 200, { name, subfolder, type });
  }

  private postPrompt(body: Buffer, res: ServerResponse): void {
    const json = parseJson(body);
    if (!isRecord(json) || !isRecord(json.prompt)) {
      sendJson(res, 400, {
        error: { type: 'invalid_prompt', message: 'Cannot execute because prompt is not a valid graph', details: '' },
        node_errors: {},
      });
      return;
    }
    if (this.rejectNext) {
      const nodeErrors = this.rejectNext;
      this.rejectNext = null;
      sendJson(res, 400, {
        error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '' },
        node_errors: nodeErrors,
      });
      return;
    }
    const graph = json.prompt as Record<string, DoubleNode>;
    const invalid = this.validate(graph);
    if (invalid) {
      sendJson(res, 400, invalid);
      return;
    }
    const promptId = typeof json.prompt_id === 'string' ? json.prompt_id : randomUUID();
    const clientId = typeof json.client_id === 'string' ? json.client_id : null;
    const extra = isRecord(json.extra_data) ? json.extra_data : {};
    const extraPngInfo = isRecord(extra.extra_pnginfo) ? extra.extra_pnginfo : undefined;
    const item: QueueItem = { number: this.counter++, promptId, graph, clientId, extraPngInfo };
    this.prompts.push({ promptId, clientId, graph, extraPngInfo });
    this.pending.push(item);
    sendJson(res, 200, { prompt_id: promptId, number: item.number, node_errors: {} });
    this.events.emit('queued', promptId);
    this.broadcastStatus();
    void this.pump();
  }

  /** ComfyUI's validate_prompt, in short: known classes, an output node, required inputs, links, combos, ranges. */
  private validate(graph: Record<string, DoubleNode>): Record<string, unknown> | null {
    const defs = this.nodeDefs();
    for (const [id, node] of Object.entries(graph)) {
      const classType = isRecord(node) ? node.class_type : undefined;
      if (typeof classType !== 'string' || !defs[classType]) {
        return {
          error: {
            type: 'invalid_prompt',
            message: `Cannot execute because node ${String(classType)} does not exist.`,
            details: `Node ID '#${id}'`,
            extra_info: {},
          },
          node_errors: {},
        };
      }
    }
    const outputs = Object.keys(graph).filter((id) => defs[graph[id]!.class_type]!.outputNode);
    if (outputs.length === 0) {
      return {
        error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} },
        node_errors: {},
      };
    }
    const nodeErrors: Record<string, unknown> = {};
    const checked = new Set<string>();
    const visit = (id: string, output: string) => {
      if (checked.has(id)) return;
      checked.add(id);
      const node = graph[id]!;
      const def = defs[node.class_type]!;
      const errors: Record<string, unknown>[] = [];
      const error = (type: string, message: string, details: string, input: string) =>
        errors.push({ type, message, details, extra_info: { input_name: input } });
      const inputs = isRecord(node.inputs) ? node.inputs : {};
      const specs = [
        ...Object.entries(def.required).map(([n, s]) => [n, s, true] as const),
        ...Object.entries(def.optional ?? {}).map(([n, s]) => [n, s, false] as const),
      ];
      for (const [name, spec, required] of specs) {
        const value = inputs[name];
        if (value === undefined) {
          if (required) error('required_input_missing', 'Required input is missing', name, name);
          continue;
        }
        const [type, config] = spec;
        if (isLink(value)) {
          const source = graph[value[0]];
          if (!source || !defs[source.class_type]) {
            error('bad_linked_input', 'Bad linked input, must be a length-2 list of [string, int]', name, name);
            continue;
          }
          const received = defs[source.class_type]!.output[value[1]];
          if (typeof type === 'string' && received !== type) {
            error(
              'return_type_mismatch',
              'Return type mismatch between linked nodes',
              `${name}, received_type(${received}) mismatch input_type(${type})`,
              name,
            );
            continue;
          }
          visit(value[0], output);
          continue;
        }
        if (Array.isArray(type)) {
          if (node.class_type.startsWith('LoadImage') && name === 'image') {
            // LoadImage validates the file itself (VALIDATE_INPUTS), so files in subfolders are accepted too.
            if (!this.files.has(inputKey(value))) {
              error(
                'custom_validation_failed',
                'Custom validation failed for node',
                `image - Invalid image file: ${String(value)}`,
                name,
              );
            }
          } else if (!type.includes(value)) {
            error(
              'value_not_in_list',
              'Value not in list',
              `${name}: '${String(value)}' not in ${JSON.stringify(type)}`,
              name,
            );
          }
        } else if (type === 'INT' || type === 'FLOAT') {
          if (typeof value !== 'number' || (type === 'INT' && !Number.isInteger(value))) {
            error(
              'invalid_input_type',
              `Failed to convert an input value to a ${type} value`,
              `${name}, ${String(value)}`,
              name,
            );
          } else if (typeof config?.min === 'number' && value < config.min) {
            error('value_smaller_than_min', `Value ${value} smaller than min of ${config.min}`, `${name}`, name);
          } else if (typeof config?.max === 'number' && value > config.max) {
            error('value_bigger_than_max', `Value ${value} bigger than max of ${config.max}`, `${name}`, name);
          }
        } else if (type === 'STRING' && typeof value !== 'string') {
          error('invalid_input_type', 'Failed to convert an input value to a STRING value', name, name);
        } else if (typeof type === 'string' && !['STRING', 'BOOLEAN'].includes(type)) {
          error('invalid_input_type', `Input ${name} must be linked to a ${type} output`, name, name);
        }
      }
      if (errors.length > 0) nodeErrors[id] = { errors, dependent_outputs: [output], class_type: node.class_type };
    };
    for (const id of outputs) visit(id, id);
    if (Object.keys(nodeErrors).length === 0) return null;
    return {
      error: {
        type: 'prompt_outputs_failed_validation',
        message: 'Prompt outputs failed validation',
        details: '',
        extra_info: {},
      },
      node_errors: nodeErrors,
    };
  }

  // ---- WebSocket ----

  private upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : url.pathname;
    const token = this.options.requireToken;
    const refusal =
      path !== '/ws'
        ? '404 Not Found'
        : token && req.headers.authorization !== `Bearer ${token}`
          ? '401 Unauthorized'
          : this.socketsRefused
            ? '503 Service Unavailable'
            : null;
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') || randomUUID().replace(/-/g, '');
      // As ComfyUI: one socket per client id, the newest wins.
      this.sockets.set(clientId, ws);
      ws.on('close', () => {
        if (this.sockets.get(clientId) === ws) this.sockets.delete(clientId);
      });
      this.sendTo(ws, clientId, 'status', { status: this.status(), sid: clientId });
    });
  }

  private status(): Record<string, unknown> {
    return { exec_info: { queue_remaining: this.pending.length + (this.running ? 1 : 0) } };
  }

  private sendTo(ws: WebSocket, clientId: string | null, type: string, data: Record<string, unknown>): void {
    this.sent.push({
      clientId,
      type,
      promptId: typeof data.prompt_id === 'string' ? data.prompt_id : undefined,
      node: typeof data.node === 'string' ? data.node : undefined,
    });
    ws.send(JSON.stringify({ type, data }));
  }

  private broadcastStatus(): void {
    for (const ws of this.wss.clients) this.sendTo(ws, null, 'status', { status: this.status() });
  }

  /** Execution events go to the prompt's client only; a prompt without client_id is broadcast, as in ComfyUI. */
  private emitEvent(item: QueueItem, type: string, data: Record<string, unknown>): void {
    if (item.clientId === null) {
      for (const ws of this.wss.clients) this.sendTo(ws, null, type, data);
      return;
    }
    const ws = this.sockets.get(item.clientId);
    if (ws) this.sendTo(ws, item.clientId, type, data);
  }

  private sendPreview(item: QueueItem, jpeg: Buffer): void {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(1, 0); // PREVIEW_IMAGE
    head.writeUInt32BE(1, 4); // JPEG
    const frame = Buffer.concat([head, jpeg]);
    const targets = item.clientId === null ? [...this.wss.clients] : [this.sockets.get(item.clientId)];
    for (const ws of targets) {
      if (!ws) continue;
      this.sent.push({ clientId: item.clientId, type: 'preview', promptId: item.promptId });
      ws.send(frame, { binary: true });
    }
  }

  private extraOf(item: QueueItem): QueueExtra {
    return { client_id: item.clientId, ...(item.extraPngInfo ? { extra_pnginfo: item.extraPngInfo } : {}) };
  }

  private outputNodes(graph: Record<string, DoubleNode>): string[] {
    const defs = this.nodeDefs();
    return Object.keys(graph).filter((id) => defs[graph[id]!.class_type]?.outputNode);
  }

  // ---- execution ----

  private async pump(): Promise<void> {
    while (!this.running && !this.paused && !this.closed && this.pending.length > 0) {
      const item = this.pending.shift()!;
      const running: Running = { item, interrupted: false };
      this.running = running;
      this.events.emit('started', item.promptId);
      try {
        await this.execute(running);
      } finally {
        this.running = null;
        this.broadcastStatus();
        this.events.emit('finished', item.promptId);
      }
    }
  }

  private async execute(running: Running): Promise<void> {
    const { item } = running;
    const { promptId, graph } = item;
    const defs = this.nodeDefs();
    const messages: unknown[] = [];
    const outputs: Record<string, { images: HistoryImage[] }> = {};
    const executed: string[] = [];
    const record = (type: string, data: Record<string, unknown>) => {
      messages.push([type, data]);
      this.emitEvent(item, type, data);
    };
    // LoadImage's IS_CHANGED hashes the file: an input overwritten under the same name is not a cache hit.
    const signatures = nodeSignatures(graph, (node) =>
      node.class_type.startsWith('LoadImage') ? contentHash(this.files.get(inputKey(node.inputs.image))?.bytes) : '',
    );
    // As ComfyUI's classic cache: what nodes of this prompt produced last time is reused, the rest is dropped.
    const cache = new Map<string, Cached>();
    for (const signature of signatures.values()) {
      const hit = this.cache.get(signature);
      if (hit) cache.set(signature, hit);
    }
    this.cache = cache;
    const cachedNodes = Object.keys(graph).filter((id) => cache.has(signatures.get(id)!));
    record('execution_start', { prompt_id: promptId, timestamp: Date.now() });
    record('execution_cached', { nodes: cachedNodes, prompt_id: promptId, timestamp: Date.now() });
    const order = executionOrder(graph, defs, this.orderSeed);
    const values = new Map<string, Value[]>();
    let outcome: 'success' | 'interrupted' | 'error' = 'success';
    let current = '';
    let ranAny = false;
    try {
      for (const id of order) {
        current = id;
        if (running.interrupted || this.closed) throw new Interrupted();
        const node = graph[id]!;
        const signature = signatures.get(id)!;
        const hit = cache.get(signature);
        let result: Cached;
        if (hit) {
          // A cached node is not executed; an output node among them still reports its images.
          result = hit;
        } else {
          ranAny = true;
          this.emitEvent(item, 'executing', { node: id, display_node: id, prompt_id: promptId });
          if (this.failNext && this.failNext.classType === node.class_type) {
            const failure = this.failNext;
            this.failNext = null;
            throw new NodeFailure(id, node.class_type, failure.message);
          }
          const inputs: Record<string, unknown> = {};
          for (const [name, value] of Object.entries(node.inputs)) {
            inputs[name] = isLink(value) ? values.get(value[0])?.[value[1]] : value;
          }
          result = await this.runNode(running, id, node.class_type, inputs);
          cache.set(signature, result);
          executed.push(id);
        }
        values.set(id, result.values);
        if (result.images) {
          outputs[id] = { images: result.images };
          this.emitEvent(item, 'executed', {
            node: id,
            display_node: id,
            output: { images: result.images },
            prompt_id: promptId,
          });
        }
      }
    } catch (error) {
      if (error instanceof Interrupted) {
        outcome = 'interrupted';
        // The step under way finishes first; the server reports the interrupt a little later.
        if (!this.closed) await sleep(this.options.interruptDelayMs ?? 500);
        record('execution_interrupted', {
          prompt_id: promptId,
          node_id: current,
          node_type: graph[current]?.class_type,
          executed,
          timestamp: Date.now(),
        });
      } else {
        outcome = 'error';
        const failure = error instanceof NodeFailure ? error : new NodeFailure(current, '', String(error));
        record('execution_error', {
          prompt_id: promptId,
          node_id: failure.nodeId,
          node_type: failure.nodeType,
          executed,
          exception_message: `${failure.message}\n`,
          exception_type: 'torch.OutOfMemoryError',
          traceback: ['Traceback (most recent call last):\n', '  File "execution.py", line 496, in execute\n'],
          current_inputs: {},
          current_outputs: {},
          timestamp: Date.now(),
        });
      }
    }
    if (outcome === 'success') record('execution_success', { prompt_id: promptId, timestamp: Date.now() });
    // As ComfyUI's prompt_worker: history is written after the last execution event, then executing null.
    const meta = Object.fromEntries(
      Object.keys(outputs).map((id) => [id, { node_id: id, display_node: id, parent_node: null, real_node_id: id }]),
    );
    this.history.set(promptId, {
      prompt: [item.number, promptId, graph, this.extraOf(item), this.outputNodes(graph)],
      outputs,
      status: { status_str: outcome === 'success' ? 'success' : 'error', completed: outcome === 'success', messages },
      meta,
    });
    // A prompt served wholly from cache sends no executing event at all.
    if (ranAny) this.emitEvent(item, 'executing', { node: null, prompt_id: promptId });
  }

  private async runNode(
    running: Running,
    id: string,
    classType: string,
    inputs: Record<string, unknown>,
  ): Promise<Cached> {
    const other: Value = { kind: 'OTHER' };
    const pic = (value: unknown): Pic => {
      if (isRecord(value) && typeof value.width === 'number') return value as Pic;
      throw new Error(`node ${id} got no picture`);
    };
    const num = (value: unknown) => Number(value);
    switch (classType) {
      case 'CheckpointLoaderSimple':
        return { values: [other, other, other] };
      case 'EmptyLatentImage':
        return {
          values: [
            {
              kind: 'LATENT',
              width: num(inputs.width),
              height: num(inputs.height),
              batch: num(inputs.batch_size),
              seed: null,
            },
          ],
        };
      case 'LoadImage': {
        const file = this.files.get(inputKey(inputs.image));
        const image: Pic = {
          kind: 'IMAGE',
          width: file?.width ?? 64,
          height: file?.height ?? 64,
          batch: 1,
          seed: null,
        };
        return { values: [image, { ...image, kind: 'MASK' }] };
      }
      case 'LoadImageMask': {
        const file = this.files.get(inputKey(inputs.image));
        return {
          values: [{ kind: 'MASK', width: file?.width ?? 64, height: file?.height ?? 64, batch: 1, seed: null }],
        };
      }
      case 'ImageScale':
        return { values: [{ ...pic(inputs.image), width: num(inputs.width), height: num(inputs.height) }] };
      case 'ImageScaleBy': {
        const image = pic(inputs.image);
        const by = num(inputs.scale_by);
        return {
          values: [{ ...image, width: Math.round(image.width * by), height: Math.round(image.height * by) }],
        };
      }
      case 'VAEEncode':
        return { values: [{ ...pic(inputs.pixels), kind: 'LATENT' }] };
      case 'VAEDecode':
        return { values: [{ ...pic(inputs.samples), kind: 'IMAGE' }] };
      case 'SetLatentNoiseMask':
        return { values: [pic(inputs.samples)] };
      case 'RepeatLatentBatch': {
        const latent = pic(inputs.samples);
        return { values: [{ ...latent, batch: latent.batch * num(inputs.amount) }] };
      }
      case 'KSampler':
        return {
          values: [await this.sample(running, id, pic(inputs.latent_image), num(inputs.seed), num(inputs.steps))],
        };
      case 'ControlNetApplyAdvanced':
        return { values: [other, other] };
      case 'SaveImage':
      case 'PreviewImage':
        return {
          values: [],
          images: await this.save(running.item, pic(inputs.images), classType, inputs.filename_prefix),
        };
      default:
        // Encoders, loaders and preprocessors: a picture passes through, anything else is opaque.
        return {
          values: defsOutput(this.nodeDefs()[classType]).map((type) =>
            type === 'IMAGE' && isRecord(inputs.image) ? pic(inputs.image) : other,
          ),
        };
    }
  }

  private async sample(running: Running, id: string, latent: Pic, seed: number, steps: number): Promise<Pic> {
    const { item } = running;
    const method = this.options.previewMethod ?? 'none';
    // Real previews are 512 px whatever the picture's size (the latent decoded and scaled), as JPEG.
    const preview =
      method === 'none'
        ? null
        : await sharp({ create: { width: 512, height: 512, channels: 3, background: seedColour(seed, 0) } })
            .jpeg({ quality: 95 })
            .toBuffer();
    const drop = this.dropNext;
    if (drop) this.dropNext = null;
    for (let step = 1; step <= steps; step++) {
      await sleep(this.stepDelayMs);
      // The progress hook checks for an interrupt once the step is done, before reporting it.
      if (running.interrupted || this.closed) throw new Interrupted();
      this.emitEvent(item, 'progress', { value: step, max: steps, prompt_id: item.promptId, node: id });
      if (preview) this.sendPreview(item, preview);
      if (drop && step === drop.afterSteps && item.clientId) this.sockets.get(item.clientId)?.terminate();
    }
    return { ...latent, kind: 'LATENT', seed };
  }

  private async save(item: QueueItem, images: Pic, classType: string, prefix: unknown): Promise<HistoryImage[]> {
    const temp = classType === 'PreviewImage';
    const jpeg = this.options.outputFormat === 'jpeg' && !temp;
    const [subfolder, base] = temp
      ? ['', 'ComfyUI_temp']
      : (() => {
          const text = String(prefix ?? 'ComfyUI');
          const slash = text.lastIndexOf('/');
          return slash >= 0 ? [text.slice(0, slash), text.slice(slash + 1)] : ['', text];
        })();
    // As SaveImage: the prompt (the whole graph) and each extra_pnginfo key, JSON, as tEXt chunks.
    const texts: [string, unknown][] = [['prompt', item.graph], ...Object.entries(item.extraPngInfo ?? {})];
    const out: HistoryImage[] = [];
    for (let index = 0; index < images.batch; index++) {
      const filename = `${base}_${String(++this.outputCounter).padStart(5, '0')}_.${jpeg ? 'jpg' : 'png'}`;
      const type = temp ? 'temp' : 'output';
      const canvas = sharp({
        create: { width: images.width, height: images.height, channels: 3, background: seedColour(images.seed, index) },
      });
      const bytes = jpeg ? await canvas.jpeg().toBuffer() : withTextChunks(await canvas.png().toBuffer(), texts);
      this.files.set(`${type}/${subfolder}/${filename}`, { bytes, width: images.width, height: images.height });
      out.push({ filename, subfolder, type });
    }
    return out;
  }
}

/** Python's json.dumps: non-ASCII escaped, so the text fits a Latin-1 tEXt chunk. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The PNG with a tEXt chunk per (keyword, JSON value) right after IHDR, as PIL's PngInfo writes them. */
function withTextChunks(png: Buffer, texts: [string, unknown][]): Buffer {
  const chunks = texts.map(([keyword, value]) => {
    const data = Buffer.concat([
      Buffer.from(keyword, 'latin1'),
      Buffer.from([0]),
      Buffer.from(asciiJson(value), 'latin1'),
    ]);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write('tEXt', 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  });
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([png.subarray(0, ihdrEnd), ...chunks, png.subarray(ihdrEnd)]);
}

/** The files key of a LoadImage value: `name` or `subfolder/name` in the input folder. */
function inputKey(value: unknown): string {
  const text = String(value);
  const slash = text.lastIndexOf('/');
  return slash >= 0 ? `input/${text.slice(0, slash)}/${text.slice(slash + 1)}` : `input//${text}`;
}

function defsOutput(def: NodeDef | undefined): string[] {
  return def?.output ?? [];
}

const contentHash = (bytes: Buffer | undefined) => (bytes ? createHash('sha256').update(bytes).digest('hex') : '');

/** A number per (start, node id), standing for the place of the id in a Python set of that start. */
function setRank(orderSeed: number, id: string): number {
  let hash = (orderSeed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 0;
  return (hash ^ (hash >>> 12)) >>> 0;
}

/**
 * Output nodes in an order fixed per start but arbitrary (v0.3.10 takes them from a set), each after the nodes
 * it depends on: with one SaveImage per image of a batch, image 2 may be done before image 1.
 */
function executionOrder(graph: Record<string, DoubleNode>, defs: Record<string, NodeDef>, orderSeed: number): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const value of Object.values(graph[id]!.inputs)) if (isLink(value)) visit(value[0]);
    order.push(id);
  };
  const outputs = Object.keys(graph)
    .filter((id) => defs[graph[id]!.class_type]?.outputNode)
    .sort((a, b) => setRank(orderSeed, a) - setRank(orderSeed, b) || a.localeCompare(b));
  for (const id of outputs) visit(id);
  return order;
}

/** Each node's cache signature: its class and inputs, a link standing for its source's signature. */
function nodeSignatures(graph: Record<string, DoubleNode>, changed: (node: DoubleNode) => string): Map<string, string> {
  const signatures = new Map<string, string>();
  const sign = (id: string): string => {
    const known = signatures.get(id);
    if (known !== undefined) return known;
    const node = graph[id]!;
    const inputs = Object.keys(node.inputs)
      .sort()
      .map((name) => {
        const value = node.inputs[name];
        return [name, isLink(value) ? { from: sign(value[0]), slot: value[1] } : value];
      });
    const signature = JSON.stringify([node.class_type, inputs, changed(node)]);
    signatures.set(id, signature);
    return signature;
  };
  for (const id of Object.keys(graph)) sign(id);
  return signatures;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Starts a double on 127.0.0.1 at a free port. */
export async function startComfyUiDouble(options: ComfyUiDoubleOptions = {}): Promise<ComfyUiDouble> {
  const double = new ComfyUiDouble(options);
  await double.listen();
  return double;
}
