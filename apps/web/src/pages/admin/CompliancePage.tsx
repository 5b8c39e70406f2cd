import { useQuery } from '@tanstack/react-query';
import { Skeleton, Typography } from 'antd';
import { PageHead } from '../../components/PageHead';
import { ComplianceForm } from '../../features/admin/ComplianceForm';
import { complianceQueries } from '../../services/compliance';
import '../../features/admin/admin-pages.css';
import { LoadFailed } from '../../common/LoadFailed';

/** What the three labels are, in a sentence each, so the admin knows what each field changes. */
function LabelsExplained() {
  return (
    <div className="hf-compliance-intro">
      <Typography.Paragraph>
        依据《人工智能生成合成内容标识办法》与 GB 45438-2025，画坊对每张生成的图片做以下标识：
      </Typography.Paragraph>
      <ul>
        <li>
          <strong>隐式标识</strong>
          ：写进图片文件元数据的标识，含服务提供者、作品编号与传播服务提供者，始终写入，不能关闭。
        </li>
        <li>
          <strong>显式标识</strong>：图片离开本站时（下载、打包下载、分享链接、灵感广场原图）画在角上的文字。
        </li>
        <li>
          <strong>作品角标</strong>：站内缩略图与作品详情角上的小标签，文字与显式标识相同，始终显示。
        </li>
      </ul>
    </div>
  );
}

/** 合规设置: the AIGC labels' producer and propagator codes and the visible mark (docs/compliance.md). */
export default function CompliancePage() {
  const query = useQuery(complianceQueries.settings());

  return (
    <div className="hf-page">
      <PageHead title="合规设置" />
      <div className="hf-panel hf-compliance-panel">
        <LabelsExplained />
        {query.isPending ? (
          <Skeleton active paragraph={{ rows: 10 }} />
        ) : query.isError ? (
          <LoadFailed title="合规设置加载失败" onRetry={() => query.refetch()} />
        ) : (
          <ComplianceForm initial={query.data} />
        )}
      </div>
    </div>
  );
}
