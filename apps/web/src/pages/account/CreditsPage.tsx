import { PageHead } from '../../components/PageHead';
import { CreditLedgerList } from '../../features/credits/CreditLedgerList';

/** 算力明细 (用户菜单): where the user's credits went and came from. */
export default function CreditsPage() {
  return (
    <div className="hf-page">
      <PageHead title="算力明细" />
      <div className="hf-panel">
        <CreditLedgerList />
      </div>
    </div>
  );
}
