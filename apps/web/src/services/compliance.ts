import type { AigcBadge, ComplianceSettings } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, requestEnvelope } from './request';

export function fetchComplianceSettings() {
  return http.get<ComplianceSettings>('/api/admin/compliance');
}

/** Resolves the saved settings and the server's message (设置成功). */
export function saveComplianceSettings(body: ComplianceSettings) {
  return requestEnvelope<ComplianceSettings>('/api/admin/compliance', { method: 'POST', body });
}

/** Quiet: a gallery that cannot read the text still shows the default badge, without an error notice. */
export function fetchAigcBadge() {
  return http.get<AigcBadge>('/api/app/configs/aigcLabel', undefined, { quiet: true });
}

export const complianceKeys = {
  settings: ['admin', 'compliance'] as const,
  badge: ['aigcBadge'] as const,
};

export const complianceQueries = {
  /**
   * Not kept once 合规设置 closes: the form takes its values when it mounts, so reopening must wait for what is stored
   * now (another admin may have saved) rather than start from an old copy.
   */
  settings: () => queryOptions({ queryKey: complianceKeys.settings, queryFn: fetchComplianceSettings, gcTime: 0 }),
  /** Once a visit: every work's badge shares this answer; saving 合规设置 replaces it (see ComplianceForm). */
  badge: () =>
    queryOptions({ queryKey: complianceKeys.badge, queryFn: fetchAigcBadge, staleTime: Number.POSITIVE_INFINITY }),
};
