/**
 * Reading what a ComfyUI server answers and sends: history entries, the queue, a refused prompt, execution errors
 * and the binary preview frames of its socket.
 */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const oneLine = (text: string, max = 300) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

export type PreviewFrame = { bytes: Buffer; mime: 'image/jpeg' | 'image/png' | 'image/webp'; promptId?: string };

/**
 * A binary socket frame: 4-byte big-endian event type. Type 1 is a preview (4-byte format, 1 JPEG / 2 PNG, then
 * the bytes); newer servers may send type 4, a preview with JSON metadata (4-byte length, JSON, bytes).
 */
export function parsePreviewFrame(frame: Buffer): PreviewFrame | null {
  if (frame.length < 8) return null;
  const type = frame.readUInt32BE(0);
  if (type === 1) {
    const format = frame.readUInt32BE(4);
    const mime = format === 1 ? 'image/jpeg' : format === 2 ? 'image/png' : null;
    return mime ? { bytes: frame.subarray(8), mime } : null;
  }
  if (type === 4) {
    const length = frame.readUInt32BE(4);
    if (8 + length > frame.length) return null;
    let meta: unknown;
    try {
      meta = JSON.parse(frame.toString('utf8', 8, 8 + length));
    } catch {
      return null;
    }
    if (!isRecord(meta)) return null;
    const mime = meta.image_type;
    if (mime !== 'image/jpeg' && mime !== 'image/png' && mime !== 'image/webp') return null;
    const promptId = typeof meta.prompt_id === 'string' ? meta.prompt_id : undefined;
    return { bytes: frame.subarray(8 + length), mime, promptId };
  }
  return null;
}

export type Terminal = { kind: 'success' } | { kind: 'interrupted' } | { kind: 'error'; message: string };
export type OutputImage = { filename: string; subfolder: string; type: string };
export type HistoryEntry = { outputs: Map<string, OutputImage[]>; terminal: Terminal };
export type QueueState = { running: string[]; pending: string[] };

export function executionErrorMessage(data: Record<string, unknown>): string {
  const node = typeof data.node_type === 'string' && data.node_type ? `（${data.node_type}）` : '';
  const exception = typeof data.exception_message === 'string' ? oneLine(data.exception_message) : '';
  return `推理后端执行任务失败${node}：${exception || '未知错误'}`;
}

/** The 400 of /prompt as one Chinese line: ComfyUI's message, then the first node errors. */
export function refusalMessage(body: unknown): string {
  const parts: string[] = [];
  if (isRecord(body) && isRecord(body.error)) {
    const { message, details } = body.error;
    if (typeof message === 'string' && message)
      parts.push(typeof details === 'string' && details ? `${message}：${details}` : message);
  }
  if (isRecord(body) && isRecord(body.node_errors)) {
    for (const [id, node] of Object.entries(body.node_errors).slice(0, 3)) {
      if (!isRecord(node) || !Array.isArray(node.errors)) continue;
      const errors = node.errors
        .filter(isRecord)
        .map((e) => [e.message, e.details].filter((t) => typeof t === 'string' && t).join('：'))
        .filter(Boolean);
      const name = typeof node.class_type === 'string' ? node.class_type : '节点';
      if (errors.length > 0) parts.push(`${name}（#${id}）${errors.join('；')}`);
    }
  }
  return `推理后端拒绝了任务：${oneLine(parts.join('；') || '任务无效', 400)}`;
}

export function parseHistoryEntry(body: unknown, promptId: string): HistoryEntry | null {
  if (!isRecord(body)) return null;
  const entry = body[promptId];
  if (!isRecord(entry)) return null;
  const outputs = new Map<string, OutputImage[]>();
  if (isRecord(entry.outputs)) {
    for (const [node, output] of Object.entries(entry.outputs)) {
      if (!isRecord(output) || !Array.isArray(output.images)) continue;
      const images = output.images.filter(isRecord).flatMap((image) =>
        typeof image.filename === 'string'
          ? [
              {
                filename: image.filename,
                subfolder: typeof image.subfolder === 'string' ? image.subfolder : '',
                type: typeof image.type === 'string' ? image.type : 'output',
              },
            ]
          : [],
      );
      outputs.set(node, images);
    }
  }
  let terminal: Terminal = { kind: 'success' };
  const status = isRecord(entry.status) ? entry.status : null;
  if (status && status.status_str === 'error') {
    const messages = Array.isArray(status.messages) ? status.messages : [];
    const find = (name: string) => messages.find((m): m is [string, unknown] => Array.isArray(m) && m[0] === name);
    const failed = find('execution_error');
    if (find('execution_interrupted')) terminal = { kind: 'interrupted' };
    else terminal = { kind: 'error', message: executionErrorMessage(isRecord(failed?.[1]) ? failed[1] : {}) };
  }
  return { outputs, terminal };
}

export function parseQueue(body: unknown): QueueState {
  const ids = (items: unknown) =>
    Array.isArray(items)
      ? items.flatMap((item) => (Array.isArray(item) && typeof item[1] === 'string' ? [item[1]] : []))
      : [];
  return isRecord(body)
    ? { running: ids(body.queue_running), pending: ids(body.queue_pending) }
    : { running: [], pending: [] };
}
