import type { PromptTreeNode } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton, Tabs } from 'antd';
import type { PromptVariant } from '../../services/prompt';
import { promptQueries } from '../../services/prompt';
import { PromptWordTag } from './PromptWordTag';
import type { PickedWord } from './use-prompt-picker';
import './prompt-library.css';

interface PromptTagTreeProps {
  variant: PromptVariant;
  helpUrlFlag: string;
  selected: ReadonlySet<string>;
  onToggle: (word: PickedWord, checked: boolean) => void;
}

function wordsOf(node: PromptTreeNode): PromptTreeNode[] {
  return (node.children ?? []).filter((child) => child.kind === 'word');
}

function sectionsOf(node: PromptTreeNode): PromptTreeNode[] {
  return (node.children ?? []).filter((child) => child.kind === 'category');
}

/** The tag tree: categories as tabs, their subcategories as sections of word tags. */
export function PromptTagTree({ variant, helpUrlFlag, selected, onToggle }: PromptTagTreeProps) {
  const tree = useQuery(promptQueries.tree(variant, helpUrlFlag));

  if (tree.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!tree.data?.length) return <Empty description="词库里还没有提示词" />;

  const renderWords = (words: PromptTreeNode[]) => (
    <div className="hf-word-list">
      {words.map((word) => (
        <PromptWordTag
          key={word.id}
          label={word.name}
          text={word.text ?? ''}
          checked={selected.has(word.id)}
          onToggle={(checked) => onToggle({ id: word.id, label: word.name, text: word.text ?? '' }, checked)}
        />
      ))}
    </div>
  );

  return (
    <Tabs
      tabPlacement="start"
      size="small"
      className="hf-tag-tree"
      items={tree.data.map((category) => ({
        key: category.id,
        label: category.name,
        children: (
          <div className="hf-tag-sections">
            {wordsOf(category).length > 0 && renderWords(wordsOf(category))}
            {sectionsOf(category).map((section) => (
              <section key={section.id} className="hf-tag-section">
                <div className="hf-tag-section-title hf-muted-label">{section.name}</div>
                {renderWords(wordsOf(section))}
              </section>
            ))}
          </div>
        ),
      }))}
    />
  );
}
