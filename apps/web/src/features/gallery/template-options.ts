import { FREE_CREATION_FILTER, type TaskTreeNode } from '@huafang/contracts';

export interface TemplateOption {
  label: string;
  value: string;
}

export interface TemplateOptionGroup {
  /** 分类 · 任务 */
  label: string;
  title: string;
  options: TemplateOption[];
}

/** The 模板 filter of 我的作品: the published templates, grouped under the path of the task holding them. */
export function templateOptionGroups(tree: TaskTreeNode[], path: string[] = []): TemplateOptionGroup[] {
  const groups: TemplateOptionGroup[] = [];
  for (const node of tree) {
    if (node.kind === 'template') continue;
    const nodePath = [...path, node.name];
    const templates = (node.children ?? []).filter((child) => child.kind === 'template');
    if (templates.length > 0) {
      const label = nodePath.join(' · ');
      groups.push({
        label,
        title: label,
        options: templates.map((template) => ({ label: template.name, value: template.id })),
      });
    }
    groups.push(...templateOptionGroups(node.children ?? [], nodePath));
  }
  return groups;
}

/** The 模板 filter of 我的作品: 自由创作 (works without a template) first, then the templates by task. */
export function galleryTemplateOptions(tree: TaskTreeNode[]): (TemplateOption | TemplateOptionGroup)[] {
  return [{ label: '自由创作', value: FREE_CREATION_FILTER }, ...templateOptionGroups(tree)];
}
