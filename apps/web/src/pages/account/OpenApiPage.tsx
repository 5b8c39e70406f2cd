import { Tabs, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { PageHead } from '../../components/PageHead';
import { ApiKeysPanel } from '../../features/open-api/ApiKeysPanel';
import { WebhooksPanel } from '../../features/open-api/WebhooksPanel';
import '../../features/open-api/open-api.css';

/** Each tab has its own address, so a link (or a reload) lands on it. */
const OPEN_API_TABS = [
  { key: 'api-keys', path: '/account/api-keys', label: 'API 密钥' },
  { key: 'webhooks', path: '/account/webhooks', label: 'Webhook' },
] as const;

/** 开放接口 (用户菜单): 个人 API 密钥 and Webhook 接收地址, the two ways programs use 画坊 (docs/api.md). */
export default function OpenApiPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = OPEN_API_TABS.find((tab) => pathname === tab.path) ?? OPEN_API_TABS[0];

  return (
    <div className="hf-page hf-oa-page">
      <PageHead title="开放接口" />
      <Typography.Paragraph className="hf-page-sub" type="secondary">
        让你的程序像网页一样调用画坊：用 API 密钥提交生成、读取作品，用 Webhook 接收结果。接口列表见
        <Typography.Link href="/api/docs" target="_blank" rel="noreferrer">
          接口文档
        </Typography.Link>
        。
      </Typography.Paragraph>
      <div className="hf-panel">
        <Tabs
          activeKey={active.key}
          onChange={(key) => {
            const tab = OPEN_API_TABS.find((item) => item.key === key);
            if (tab) void navigate(tab.path);
          }}
          items={[
            { key: 'api-keys', label: OPEN_API_TABS[0].label, children: <ApiKeysPanel /> },
            { key: 'webhooks', label: OPEN_API_TABS[1].label, children: <WebhooksPanel /> },
          ]}
        />
      </div>
    </div>
  );
}
