import { ExperimentOutlined, PictureOutlined } from '@ant-design/icons';
import type { TaskStep } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Modal, Pagination, Result, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { fileUrl } from '../../services/files';
import { toast } from '../../services/notices';
import { coverFromWork, taskAdminKeys, taskAdminQueries } from '../../services/task-admin';
import { useSampleGeneration } from './use-sample-generation';

const PAGE_SIZE = 12;

interface CoverFromWorksProps {
  templateId: string;
  /** The template's first step as saved: 生成示例 runs it with its defaults. */
  firstStep: TaskStep | undefined;
  onChange: (cover: string) => void;
}

/**
 * 从作品选择封面: thumbnails of works made with the template (its public works and the admin's own); picking one
 * copies it into a cover file that goes into the draft like an upload. 「生成示例」 paints one with the template's
 * defaults, as the admin, and lists it first.
 */
export function CoverFromWorks({ templateId, firstStep, onChange }: CoverFromWorksProps) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const works = useQuery({ ...taskAdminQueries.coverWorks(templateId, page, PAGE_SIZE), enabled: open });
  const pick = useMutation({
    mutationFn: (workId: string) => coverFromWork(templateId, workId),
    onSuccess: ({ data, msg }) => {
      toast(msg, 'success');
      onChange(fileUrl(data.fileId));
      setOpen(false);
    },
  });
  const sample = useSampleGeneration(templateId, firstStep, async () => {
    setPage(1);
    await queryClient.invalidateQueries({ queryKey: taskAdminKeys.coverWorks(templateId, 1) });
  });

  return (
    <>
      <Button icon={<PictureOutlined />} onClick={() => setOpen(true)}>
        从作品选择
      </Button>
      <Modal
        open={open}
        title="选择作品作为封面"
        onCancel={() => setOpen(false)}
        width="min(720px, calc(100vw - 32px))"
        footer={
          <Button icon={<ExperimentOutlined />} loading={sample.running} disabled={!firstStep} onClick={sample.start}>
            {sample.running ? sample.label : '生成示例'}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">
          可选用这个模板生成的公开作品，或你自己用它生成的作品。「生成示例」会用模板的默认参数以你的身份生成一张。
        </Typography.Paragraph>
        {works.isPending ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : works.isError ? (
          <Result
            status="warning"
            subTitle="作品加载失败"
            extra={<Button onClick={() => void works.refetch()}>重试</Button>}
          />
        ) : works.data.list.length === 0 ? (
          <Empty description="还没有用这个模板生成的作品，点「生成示例」生成一张" />
        ) : (
          <>
            <ul className="hf-ta-cover-works" aria-label="可选作品">
              {works.data.list.map((work) => (
                <li key={work.id}>
                  <button
                    type="button"
                    className="hf-ta-cover-work"
                    aria-label={`选用这幅作品作为封面${work.own ? '（我的作品）' : ''}`}
                    disabled={pick.isPending}
                    onClick={() => pick.mutate(work.id)}
                  >
                    <img src={work.thumbUrl} alt="" style={{ aspectRatio: `${work.width} / ${work.height}` }} />
                    {work.own && <Tag className="hf-ta-cover-own">我的</Tag>}
                  </button>
                </li>
              ))}
            </ul>
            {works.data.total > PAGE_SIZE && (
              <Pagination
                size="small"
                current={page}
                pageSize={PAGE_SIZE}
                total={works.data.total}
                onChange={setPage}
                showSizeChanger={false}
              />
            )}
          </>
        )}
      </Modal>
    </>
  );
}
