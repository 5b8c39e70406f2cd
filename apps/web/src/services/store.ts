import type { ComboPlan, ComboPlanBody, ComboStore } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from './request';

/** 套餐商店: the enabled plans and the user's balance. */
export function fetchComboStore() {
  return http.get<ComboStore>('/api/account/combo/store');
}

/** 套餐配置: every plan, disabled ones included. */
export function fetchAdminCombos() {
  return http.get<ComboPlan[]>('/api/admin/combos');
}

export function createCombo(body: ComboPlanBody) {
  return http.post<ComboPlan>('/api/admin/combos', body);
}

export function updateCombo(id: string, body: ComboPlanBody) {
  return http.put<ComboPlan>(`/api/admin/combos/${encodeURIComponent(id)}`, body);
}

export function deleteCombo(id: string) {
  return http.delete<null>(`/api/admin/combos/${encodeURIComponent(id)}`);
}

export const storeKeys = {
  store: ['comboStore'] as const,
  adminCombos: ['admin', 'combos'] as const,
};

export const storeQueries = {
  /** Read fresh each time the store opens: the balance moves with every generation. */
  store: () => queryOptions({ queryKey: storeKeys.store, queryFn: fetchComboStore, staleTime: 0 }),
  adminCombos: () => queryOptions({ queryKey: storeKeys.adminCombos, queryFn: fetchAdminCombos }),
};
