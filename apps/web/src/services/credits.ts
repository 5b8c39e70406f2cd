import type { CreditLedgerPage } from '@huafang/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from './request';

/** 算力明细: the logged-in user's credit changes, newest first, and the balance now. */
export function fetchCreditLedger(current: number, pageSize: number) {
  return http.get<CreditLedgerPage>('/api/account/credits/ledger', { current, pageSize });
}

export const creditKeys = {
  ledger: ['account', 'credits', 'ledger'] as const,
};

export const creditQueries = {
  /** Fresh on each visit (a run or a purchase may have moved it), the last page kept while the next loads. */
  ledger: (current: number, pageSize: number) =>
    queryOptions({
      queryKey: [...creditKeys.ledger, current, pageSize],
      queryFn: () => fetchCreditLedger(current, pageSize),
      staleTime: 0,
      placeholderData: keepPreviousData,
    }),
};
