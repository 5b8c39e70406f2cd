import { useParams } from 'react-router';
import { PageHead } from '../../components/PageHead';
import { PayResult } from '../../features/payments/PayResult';

/** /account/orders/:id/result: where Alipay's and WeChat Pay's pages send the buyer back. */
export default function PayResultPage() {
  const { id = '' } = useParams();
  return (
    <div className="hf-page">
      <PageHead title="支付结果" />
      <div className="hf-panel">
        <PayResult key={id} orderId={id} />
      </div>
    </div>
  );
}
