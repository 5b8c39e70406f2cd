import { PageHead } from '../../components/PageHead';
import { WechatPayReturn } from '../../features/payments/WechatPayReturn';

/** /account/pay/wechat: where WeChat's browser comes back from the official account's authorisation to pay. */
export default function WechatPayPage() {
  return (
    <div className="hf-page">
      <PageHead title="微信支付" />
      <div className="hf-panel">
        <WechatPayReturn />
      </div>
    </div>
  );
}
