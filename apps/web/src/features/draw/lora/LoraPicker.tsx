import { CheckCircleFilled, LockOutlined, PictureOutlined, SearchOutlined } from '@ant-design/icons';
import type { LoraStyle, LoraUse } from '@huafang/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Drawer, Empty, Input, Modal, Segmented, Skeleton, Switch, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { LoadFailed } from '../../../common/LoadFailed';
import { useIsPhone } from '../../../common/use-screen';
import { openComboStore } from '../../store/combo-store-state';
import { type ChosenModel, filterLoras, formatWeight, MAX_LORAS, misfit, styleGroupsOf } from './lora-picks';

interface LoraPickerProps {
  open: boolean;
  onClose: () => void;
  styles: UseQueryResult<LoraStyle[]>;
  /** The LoRAs the step allows; null for any enabled one. */
  allowed: ReadonlySet<string> | null;
  /** The chosen checkpoint; undefined while no model is chosen. */
  model: ChosenModel | undefined;
  chosen: LoraUse[];
  onPick: (lora: LoraStyle) => void;
  onRemove: (loraId: string) => void;
}

const ALL = '全部';

/**
 * 选择风格: covers by style group, search, and only the LoRAs that fit the chosen checkpoint unless 显示其他基础模型
 * (then the others show greyed). Locked ones say how to get them. A phone gets a full-screen sheet.
 */
export function LoraPicker({ open, onClose, ...props }: LoraPickerProps) {
  const phone = useIsPhone();
  const footer = (
    <div className="hf-lora-picker-footer">
      <span className="hf-muted" aria-live="polite">
        已选 {props.chosen.length}/{MAX_LORAS}
      </span>
      <Button type="primary" onClick={onClose}>
        完成
      </Button>
    </div>
  );
  const body = <PickerBody {...props} />;
  return phone ? (
    <Drawer
      open={open}
      onClose={onClose}
      placement="bottom"
      size="100%"
      title="选择风格"
      footer={footer}
      className="hf-lora-picker hf-lora-picker-sheet"
      destroyOnHidden
    >
      {body}
    </Drawer>
  ) : (
    <Modal
      open={open}
      onCancel={onClose}
      title="选择风格"
      footer={footer}
      width={900}
      className="hf-lora-picker"
      destroyOnHidden
    >
      {body}
    </Modal>
  );
}

function PickerBody({ styles, allowed, model, chosen, onPick, onRemove }: Omit<LoraPickerProps, 'open' | 'onClose'>) {
  const [query, setQuery] = useState('');
  const [group, setGroup] = useState<string>(ALL);
  const [showAllFamilies, setShowAllFamilies] = useState(false);
  if (styles.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (styles.isError) return <LoadFailed title="风格加载失败" onRetry={() => void styles.refetch()} />;

  const offered = allowed ? styles.data.filter((lora) => allowed.has(lora.id)) : styles.data;
  const groups = styleGroupsOf(offered);
  const activeGroup = groups.includes(group) ? group : ALL;
  const shown = filterLoras(offered, allowed, {
    query,
    group: activeGroup === ALL ? null : activeGroup,
    model,
    showAllFamilies,
  });
  const full = chosen.length >= MAX_LORAS;

  return (
    <div className="hf-lora-picker-body">
      <div className="hf-lora-picker-tools">
        <Input
          allowClear
          prefix={<SearchOutlined aria-hidden />}
          placeholder="搜索风格名称或触发词"
          aria-label="搜索风格"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoFocus
          className="hf-lora-search"
        />
        {model && (
          <span className="hf-lora-family-switch">
            <Switch id="hf-lora-all-families" size="small" checked={showAllFamilies} onChange={setShowAllFamilies} />
            <label htmlFor="hf-lora-all-families">显示其他基础模型</label>
          </span>
        )}
      </div>
      {model && <div className="hf-muted hf-lora-family-note">当前模型的基础模型类型：{model.family}</div>}
      {groups.length > 1 && (
        <Segmented<string>
          value={activeGroup}
          onChange={setGroup}
          options={[ALL, ...groups]}
          className="hf-segmented"
          aria-label="风格分组"
        />
      )}
      {full && <div className="hf-lora-full">最多选择 {MAX_LORAS} 个风格，移除一个后才能再选</div>}
      {shown.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={offered.length === 0 ? '暂无可用的风格' : '没有符合条件的风格'}
        />
      ) : (
        <ul className="hf-lora-grid" aria-label="风格列表">
          {shown.map((lora) => (
            <LoraCard
              key={lora.id}
              lora={lora}
              picked={chosen.some((use) => use.loraId === lora.id)}
              misfit={misfit(lora, model)}
              full={full}
              onToggle={(picked) => (picked ? onRemove(lora.id) : onPick(lora))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

interface LoraCardProps {
  lora: LoraStyle;
  picked: boolean;
  /** Why it does not suit the chosen model, if it does not. */
  misfit: string | null;
  full: boolean;
  onToggle: (picked: boolean) => void;
}

function LoraCard({ lora, picked, misfit, full, onToggle }: LoraCardProps) {
  // A chosen LoRA can always be taken out, even one a recall brought that no longer fits.
  const why: ReactNode = picked
    ? null
    : lora.locked
      ? (lora.unlockHint ?? '当前账号暂不可用')
      : (misfit ?? (full ? `最多 ${MAX_LORAS} 个` : null));
  const blocked = why !== null;
  return (
    <li className={`hf-lora-card${picked ? ' hf-lora-card-picked' : ''}${blocked ? ' hf-lora-card-blocked' : ''}`}>
      <button
        type="button"
        className="hf-lora-card-main"
        aria-pressed={picked}
        disabled={blocked}
        onClick={() => onToggle(picked)}
        aria-label={`${lora.name}${lora.locked ? '（未解锁）' : ''}`}
        aria-description={[lora.description, why].filter(Boolean).join('；') || undefined}
      >
        <span className="hf-lora-cover-box">
          {lora.cover ? (
            <img src={lora.cover} alt="" className="hf-lora-cover" loading="lazy" decoding="async" />
          ) : (
            <span className="hf-lora-cover hf-lora-cover-empty" aria-hidden>
              <PictureOutlined />
            </span>
          )}
          {picked && <CheckCircleFilled className="hf-lora-picked-mark" aria-hidden />}
          {lora.locked && <LockOutlined className="hf-lora-lock-mark" aria-hidden />}
        </span>
        <span className="hf-lora-card-name">{lora.name}</span>
        <span className="hf-lora-card-meta">
          <Tag variant="filled" className="hf-lora-family-tag">
            {lora.family}
          </Tag>
          <span className="hf-muted">权重 {formatWeight(lora.defaultWeight)}</span>
        </span>
      </button>
      {why && <span className="hf-lora-card-why">{why}</span>}
      {!picked && lora.locked && (
        <Button type="link" size="small" className="hf-lora-store-link" onClick={openComboStore}>
          去套餐商店
        </Button>
      )}
    </li>
  );
}
