import type { Agreement, AgreementType, DisplayConfig } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from './request';

export function fetchAgreement(type: AgreementType) {
  return http.get<Agreement>(`/api/app/configs/agreement/${type}`);
}

export const agreementKeys = {
  agreement: (type: AgreementType) => ['agreement', type] as const,
};

export const agreementQueries = {
  agreement: (type: AgreementType) =>
    queryOptions({ queryKey: agreementKeys.agreement(type), queryFn: () => fetchAgreement(type) }),
};

function fetchDisplayConfig() {
  return http.get<DisplayConfig>('/api/app/configs/display', undefined, { quiet: true });
}

export const appConfigQueries = {
  /** Once a visit: the zone does not change while the server runs. */
  display: () => queryOptions({ queryKey: ['displayConfig'], queryFn: fetchDisplayConfig, staleTime: Infinity }),
};
