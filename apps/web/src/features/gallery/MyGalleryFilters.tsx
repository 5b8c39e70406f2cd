import { useQuery } from '@tanstack/react-query';
import { DatePicker, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import dayjs, { isAfterDisplayToday } from '../../common/dayjs';
import { taskQueries } from '../../services/task';
import type { GalleryFilters } from './gallery-filters';
import { galleryTemplateOptions } from './template-options';

interface MyGalleryFiltersProps {
  value: GalleryFilters;
  onChange: (patch: Partial<GalleryFilters>) => void;
}

const DAY = 'YYYY-MM-DD';

/** 模板, 日期 and 关键词 (Enter searches). */
export function MyGalleryFilters({ value, onChange }: MyGalleryFiltersProps) {
  const tree = useQuery(taskQueries.tree(''));
  const [keyword, setKeyword] = useState(value.keyword);
  // 清除筛选 clears the applied keyword; the box follows it.
  useEffect(() => setKeyword(value.keyword), [value.keyword]);
  const range: [Dayjs, Dayjs] | null = value.range ? [dayjs(value.range[0]), dayjs(value.range[1])] : null;

  return (
    <div className="hf-gallery-filters">
      <Select
        className="hf-gallery-template"
        aria-label="按模板筛选"
        placeholder="全部模板"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={tree.isPending}
        options={galleryTemplateOptions(tree.data ?? [])}
        value={value.templateId}
        onChange={(templateId: string | undefined) => onChange({ templateId })}
      />
      <DatePicker.RangePicker
        aria-label="按日期筛选"
        value={range}
        disabledDate={isAfterDisplayToday}
        onChange={(days) =>
          onChange({ range: days?.[0] && days[1] ? [days[0].format(DAY), days[1].format(DAY)] : null })
        }
      />
      <Input.Search
        className="hf-gallery-keyword"
        aria-label="搜索作品"
        placeholder="搜索提示词或模板名"
        allowClear
        maxLength={50}
        value={keyword}
        onChange={(event) => setKeyword(event.target.value)}
        onSearch={(keyword) => onChange({ keyword: keyword.trim() })}
      />
    </div>
  );
}
