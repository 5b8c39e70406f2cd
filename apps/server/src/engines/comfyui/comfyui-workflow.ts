import type { ComfyGraph, ComfyInputSpec, ComfyLink, ComfyObjectInfo } from './comfyui-graph.js';
import { isRecord } from './comfyui-messages.js';

/**
 * The UI-format workflow (LiteGraph, version 0.4) of an API-format graph, sent as
 * `extra_data.extra_pnginfo.workflow`: ComfyUI writes it into every saved PNG as the `workflow` text chunk, from
 * which its web UI reopens the work (the API graph alone, the `prompt` chunk, is not enough to reopen it).
 */
export type UiWorkflow = {
  last_node_id: number;
  last_link_id: number;
  nodes: UiNode[];
  links: [id: number, from: number, fromSlot: number, to: number, toSlot: number, type: string][];
  groups: [];
  config: Record<string, never>;
  extra: Record<string, unknown>;
  version: 0.4;
};

type UiNode = {
  id: number;
  type: string;
  pos: [number, number];
  size: [number, number];
  flags: Record<string, never>;
  order: number;
  mode: 0;
  inputs: { name: string; type: string; link: number }[];
  outputs: { name: string; type: string; links: number[]; slot_index: number }[];
  properties: { 'Node name for S&R': string };
  widgets_values: unknown[];
};

const WIDGET_TYPES = new Set(['INT', 'FLOAT', 'STRING', 'BOOLEAN', 'COMBO']);
/** Inputs after which the web UI adds its "control after generate" widget (we keep a work's seed fixed). */
const SEED_INPUTS = new Set(['seed', 'noise_seed']);

const isLink = (value: unknown): value is ComfyLink =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'number';

/** A widget input (number, text, toggle, choice list) rather than a socket for another node's output. */
function isWidget(spec: ComfyInputSpec | undefined): boolean {
  const head = spec?.[0];
  return Array.isArray(head) || (typeof head === 'string' && WIDGET_TYPES.has(head));
}

const specDefault = (spec: ComfyInputSpec | undefined): unknown => {
  const config = spec?.[1];
  if (isRecord(config) && 'default' in config) return config.default;
  const head = spec?.[0];
  return Array.isArray(head) ? head[0] : undefined;
};

/**
 * The workflow of `graph`, widgets in the order the server's `/object_info` declares the inputs (the order the
 * web UI reads `widgets_values` in), nodes laid out left to right by depth.
 */
export function uiWorkflow(graph: ComfyGraph, info: ComfyObjectInfo): UiWorkflow {
  const ids = Object.keys(graph);
  const depth = new Map<string, number>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    depth.set(id, 0);
    let d = 0;
    for (const value of Object.values(graph[id]?.inputs ?? {})) {
      if (isLink(value) && graph[value[0]]) d = Math.max(d, depthOf(value[0]) + 1);
    }
    depth.set(id, d);
    return d;
  };
  for (const id of ids) depthOf(id);
  const ordered = [...ids].sort((a, b) => depthOf(a) - depthOf(b) || Number(a) - Number(b));
  const rows = new Map<number, number>();

  const links: UiWorkflow['links'] = [];
  const nodes = new Map<string, UiNode>();
  ordered.forEach((id, order) => {
    const node = graph[id]!;
    const def = info[node.class_type];
    const column = depthOf(id);
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    const outputTypes = def?.output ?? [];
    nodes.set(id, {
      id: Number(id),
      type: node.class_type,
      pos: [50 + column * 380, 50 + row * 260],
      size: [320, 200],
      flags: {},
      order,
      mode: 0,
      inputs: [],
      outputs: outputTypes.map((type, slot) => ({ name: type, type, links: [], slot_index: slot })),
      properties: { 'Node name for S&R': node.class_type },
      widgets_values: [],
    });
  });

  for (const id of ordered) {
    const node = graph[id]!;
    const ui = nodes.get(id)!;
    const def = info[node.class_type];
    const specs: [string, ComfyInputSpec | undefined][] = def
      ? [...Object.entries(def.input.required), ...Object.entries(def.input.optional)]
      : Object.keys(node.inputs).map((name) => [name, undefined]);
    for (const [name, spec] of specs) {
      const value = node.inputs[name];
      if (isLink(value)) {
        const source = nodes.get(value[0]);
        if (!source) continue;
        const linkId = links.length + 1;
        const type = source.outputs[value[1]]?.type ?? (typeof spec?.[0] === 'string' ? spec[0] : '*');
        links.push([linkId, source.id, value[1], ui.id, ui.inputs.length, type]);
        source.outputs[value[1]]?.links.push(linkId);
        ui.inputs.push({ name, type, link: linkId });
        continue;
      }
      if (def && !isWidget(spec)) continue;
      if (value === undefined && !def) continue;
      ui.widgets_values.push(value ?? specDefault(spec));
      if (SEED_INPUTS.has(name)) ui.widgets_values.push('fixed');
      // LoadImage's upload button is a widget too, saved with the value "image".
      if (isRecord(spec?.[1]) && spec[1].image_upload === true) ui.widgets_values.push('image');
    }
  }

  return {
    last_node_id: Math.max(0, ...ids.map(Number).filter(Number.isFinite)),
    last_link_id: links.length,
    nodes: [...nodes.values()],
    links,
    groups: [],
    config: {},
    extra: {},
    version: 0.4,
  };
}
