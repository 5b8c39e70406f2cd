import type { Agreement, AgreementType } from '@huafang/contracts';
import { http } from './request';

export function fetchAgreement(type: AgreementType) {
  return http.get<Agreement>(`/api/app/configs/agreement/${type}`);
}
