import { Drawer, Input, Tabs } from 'antd';
import { useState } from 'react';
import { useDrawerSize } from '../../common/use-screen';
import type { PromptVariant } from '../../services/prompt';
import { HELP_URL_FLAG } from '../../services/prompt';
import { useDraw } from '../../stores/draw';
import { PromptSearchResults } from './PromptSearchResults';
import { PromptTagTree } from './PromptTagTree';
import { usePromptPicker } from './use-prompt-picker';
import './prompt-library.css';

interface PromptLibraryDrawerProps {
  variant: PromptVariant;
  open: boolean;
  onClose: () => void;
}

/** 词库: the tag tree (常用 or 全部, kept as helpUrlFlag) and a search; a click adds or removes a word. */
export function PromptLibraryDrawer({ variant, open, onClose }: PromptLibraryDrawerProps) {
  const helpUrlFlag = useDraw((state) => state.helpUrlFlag);
  const setHelpUrlFlag = useDraw((state) => state.setHelpUrlFlag);
  const [keyword, setKeyword] = useState('');
  const drawerSize = useDrawerSize(600);
  const { selected, toggle } = usePromptPicker(variant);
  const flag = helpUrlFlag === HELP_URL_FLAG.featured ? HELP_URL_FLAG.featured : HELP_URL_FLAG.all;

  return (
    <Drawer
      title={variant === 'negative' ? '反向词库' : '正向词库'}
      open={open}
      onClose={onClose}
      size={drawerSize}
      className="hf-library-drawer"
    >
      <Tabs
        activeKey={flag}
        onChange={setHelpUrlFlag}
        items={[
          { key: HELP_URL_FLAG.featured, label: '常用' },
          { key: HELP_URL_FLAG.all, label: '全部' },
        ]}
      />
      <Input.Search
        placeholder="搜索中文或英文，如 杰作 / masterpiece"
        allowClear
        enterButton="搜索"
        onSearch={(value) => setKeyword(value.trim())}
        className="hf-library-search"
      />
      {keyword ? (
        <PromptSearchResults
          variant={variant}
          helpUrlFlag={flag}
          keyword={keyword}
          selected={selected}
          onToggle={toggle}
        />
      ) : (
        <PromptTagTree variant={variant} helpUrlFlag={flag} selected={selected} onToggle={toggle} />
      )}
    </Drawer>
  );
}
