import type { AgreementType } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Segmented, Skeleton } from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../common/LoadFailed';
import { PageHead } from '../../components/PageHead';
import { AgreementEditor } from '../../features/admin/AgreementEditor';
import { AGREEMENT_NAMES } from '../../features/agreement/agreement-meta';
import { agreementQueries } from '../../services/app-config';
import { isRequestError } from '../../services/request-error';

const TYPES: AgreementType[] = ['privacy', 'service', 'questionnaire'];

export default function AgreementConfigPage() {
  const [type, setType] = useState<AgreementType>('privacy');
  const query = useQuery(agreementQueries.agreement(type));
  // An agreement nobody has saved yet answers 404: start from an empty document instead of an error.
  const notConfigured = isRequestError(query.error) && query.error.status === 404;

  return (
    <div className="hf-page">
      <PageHead title="协议配置" />
      <div className="hf-panel">
        <Segmented<AgreementType>
          value={type}
          onChange={setType}
          options={TYPES.map((value) => ({ value, label: AGREEMENT_NAMES[value] }))}
          className="hf-segmented"
        />
        {query.isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : notConfigured ? (
          <AgreementEditor key={type} type={type} initial={{ title: AGREEMENT_NAMES[type], content: '' }} />
        ) : query.isError ? (
          <LoadFailed title="协议加载失败" onRetry={() => query.refetch()} />
        ) : (
          <AgreementEditor key={type} type={type} initial={query.data} />
        )}
      </div>
    </div>
  );
}
