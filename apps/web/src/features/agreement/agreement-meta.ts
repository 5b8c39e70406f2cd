import type { AgreementType } from '@huafang/contracts';

export const AGREEMENT_NAMES: Record<AgreementType, string> = {
  privacy: '隐私协议',
  service: '服务条款',
  questionnaire: '问卷调查',
};

/** The public routes of spec §2 that show each agreement. */
export const AGREEMENT_PATHS: Record<AgreementType, string> = {
  privacy: '/privacyAgreement',
  service: '/servicePolicy',
  questionnaire: '/questionnaire',
};
