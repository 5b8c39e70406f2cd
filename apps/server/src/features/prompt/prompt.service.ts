import type { Page, PromptTreeNode, PromptWord, PromptWordBody } from '@huafang/contracts';
import type { Selectable } from 'kysely';
import type { PromptWordTable } from '../../platform/db/schema.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import { PROMPT_LIBRARY, type PromptCategorySeed } from '../../seed/prompt-library-data.js';
import type { PromptRepository, PromptVariant } from './prompt.repository.js';

const toWord = (row: Selectable<PromptWordTable>): PromptWord => ({
  id: row.id,
  categoryId: row.category_id,
  label: row.label,
  text: row.text,
  featured: row.featured === 1,
});

/** helpUrlFlag "01" (the default) reads the featured words only; other values read the whole library. */
export const featuredOnly = (helpUrlFlag: string) => helpUrlFlag === '01';

export class PromptService {
  private readonly prompts: PromptRepository;

  /**
   * `onLibraryChange` runs after an admin edits a word, so caches built on the library (translation) refresh; the
   * edit's answer waits for it, so the next request to any API process sees the edit.
   */
  constructor(
    repos: Repositories,
    private readonly onLibraryChange: () => Promise<void> = async () => {},
  ) {
    this.prompts = repos.prompts;
  }

  /** Category → subcategory → word; categories without words in this variant are left out. */
  async tree(variant: PromptVariant, helpUrlFlag: string): Promise<PromptTreeNode[]> {
    const [categories, words] = await Promise.all([
      this.prompts.categories(variant),
      this.prompts.words(variant, featuredOnly(helpUrlFlag)),
    ]);
    const wordsOf = new Map<string, PromptTreeNode[]>();
    for (const w of words) {
      const list = wordsOf.get(w.category_id) ?? [];
      list.push({ id: w.id, key: w.id, name: w.label, kind: 'word', text: w.text });
      wordsOf.set(w.category_id, list);
    }
    const build = (parentId: string | null): PromptTreeNode[] =>
      categories
        .filter((c) => c.parent_id === parentId)
        .map((c) => {
          const children = [...build(c.id), ...(wordsOf.get(c.id) ?? [])];
          return { id: c.id, key: c.id, name: c.name, kind: 'category' as const, children };
        })
        .filter((node) => node.children.length > 0);
    return build(null);
  }

  async page(
    variant: PromptVariant,
    query: { helpUrlFlag: string; keyword?: string; categoryId?: string; current: number; pageSize: number },
  ): Promise<Page<PromptWord>> {
    let categoryIds: string[] | undefined;
    if (query.categoryId) {
      const categories = await this.prompts.categories(variant);
      categoryIds = [query.categoryId, ...categories.filter((c) => c.parent_id === query.categoryId).map((c) => c.id)];
    }
    const { rows, total } = await this.prompts.page(
      { variant, featuredOnly: featuredOnly(query.helpUrlFlag), keyword: query.keyword || undefined, categoryIds },
      query,
    );
    return { list: rows.map(toWord), current: query.current, pageSize: query.pageSize, total };
  }

  async createWord(categoryId: string, body: PromptWordBody): Promise<PromptWord> {
    const category = await this.prompts.findCategory(categoryId);
    if (!category) throw fail('词库分类不存在');
    const id = newId();
    await this.prompts.insertWords([
      {
        id,
        category_id: categoryId,
        variant: category.variant,
        label: body.label,
        text: body.text,
        featured: body.featured ? 1 : 0,
        sort: Date.now() % 1_000_000_000,
      },
    ]);
    await this.onLibraryChange();
    return toWord((await this.prompts.findWord(id))!);
  }

  async updateWord(id: string, body: PromptWordBody): Promise<PromptWord> {
    if (!(await this.prompts.findWord(id))) throw notFound('提示词不存在');
    await this.prompts.updateWord(id, { label: body.label, text: body.text, featured: body.featured ? 1 : 0 });
    await this.onLibraryChange();
    return toWord((await this.prompts.findWord(id))!);
  }

  async deleteWord(id: string): Promise<void> {
    if (!(await this.prompts.findWord(id))) throw notFound('提示词不存在');
    await this.prompts.deleteWord(id);
    await this.onLibraryChange();
  }

  /** Seeds the demo library once; later edits by admins are kept. */
  async seedLibrary(library: PromptCategorySeed[] = PROMPT_LIBRARY): Promise<void> {
    if ((await this.prompts.countCategories()) > 0) return;
    let sort = 0;
    for (const category of library) {
      const insertCategory = async (name: string, parentId: string | null) => {
        const id = newId();
        await this.prompts.insertCategory({ id, variant: category.variant, parent_id: parentId, name, sort: sort++ });
        return id;
      };
      const categoryId = await insertCategory(category.name, null);
      for (const child of category.children) {
        const childId = await insertCategory(child.name, categoryId);
        await this.prompts.insertWords(
          child.words.map((w) => ({
            id: newId(),
            category_id: childId,
            variant: category.variant,
            label: w.label,
            text: w.text,
            featured: w.featured ? 1 : 0,
            sort: sort++,
          })),
        );
      }
    }
  }
}
