import { Alert, Tabs } from 'antd';
import { useSession } from '../../stores/session';
import { AccountLoginForm } from './AccountLoginForm';
import { AccountModal } from './AccountModal';
import { AgreementNote } from './AgreementNote';
import { MobileLoginForm } from './MobileLoginForm';
import { clearPendingAction } from './pending-action';
import { pendingActionStorage } from './require-login';
import './account-dialogs.css';

export function LoginDialog() {
  const closeDialog = useSession((state) => state.closeDialog);
  const notice = useSession((state) => state.loginNotice);
  const setLoginNotice = useSession((state) => state.setLoginNotice);

  /** Closing it is giving up what asked for the login: a later login from the header does not replay it. */
  function close() {
    closeDialog('login');
    setLoginNotice(null);
    clearPendingAction(pendingActionStorage);
  }

  return (
    <AccountModal name="login" onCancel={close} width={420}>
      <div className="hf-dialog-brand">
        <span className="hf-logo-mark">画</span>
        <div>
          <div className="hf-dialog-brand-title">登录画坊</div>
          <div className="hf-muted-label">用文字描绘你的想象</div>
        </div>
      </div>
      {notice && <Alert type="warning" showIcon title={notice} className="hf-login-notice" />}
      {/* 手机登录 first: it also signs a new mobile up, in one step. */}
      <Tabs
        centered
        destroyOnHidden
        defaultActiveKey="mobile"
        items={[
          { key: 'mobile', label: '手机登录', children: <MobileLoginForm /> },
          { key: 'account', label: '账号登录', children: <AccountLoginForm /> },
        ]}
      />
      <AgreementNote />
    </AccountModal>
  );
}
