import { Typography } from 'antd';
import './account-dialogs.css';

/** Links open in a new tab so the dialog and its input survive (spec §2). */
export function AgreementNote() {
  return (
    <Typography.Paragraph type="secondary" className="hf-agreement-note">
      登录即表示你已阅读并同意
      <a href="/servicePolicy" target="_blank" rel="noopener">
        《服务条款》
      </a>
      和
      <a href="/privacyAgreement" target="_blank" rel="noopener">
        《隐私协议》
      </a>
    </Typography.Paragraph>
  );
}
