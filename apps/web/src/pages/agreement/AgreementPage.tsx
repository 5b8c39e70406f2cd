import type { AgreementType } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton, Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { LoadFailed } from '../../common/LoadFailed';
import { AGREEMENT_NAMES } from '../../features/agreement/agreement-meta';
import { agreementQueries } from '../../services/app-config';
import { isRequestError } from '../../services/request-error';
import './agreement.css';

/** A centred document from /api/app/configs/agreement/{type}; opened in a new tab. */
export default function AgreementPage({ type }: { type: AgreementType }) {
  const query = useQuery(agreementQueries.agreement(type));
  const title = query.data?.title || AGREEMENT_NAMES[type];

  useEffect(() => {
    document.title = `${title} - 画坊`;
  }, [title]);

  let body: ReactNode;
  if (query.isPending) body = <Skeleton active title paragraph={{ rows: 12 }} />;
  else if (isRequestError(query.error) && query.error.status === 404)
    body = <Empty description={`${AGREEMENT_NAMES[type]}暂未发布`} />;
  else if (query.isError)
    body = <LoadFailed title="内容加载失败" subTitle="请检查网络后重试" onRetry={() => query.refetch()} />;
  else
    body = (
      <>
        <Typography.Title level={2} className="hf-doc-title">
          {title}
        </Typography.Title>
        {query.data.content.trim() ? (
          <div className="hf-doc-content">{query.data.content}</div>
        ) : (
          <Empty description="暂无内容" />
        )}
      </>
    );

  return (
    <div className="hf-doc-page">
      <div className="hf-doc-brand">
        <span className="hf-logo-mark">画</span>
        <span className="hf-logo-text">画坊</span>
      </div>
      <article className="hf-doc">{body}</article>
    </div>
  );
}
