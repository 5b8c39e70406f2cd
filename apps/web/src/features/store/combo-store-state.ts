import { create } from 'zustand';

/** Whether the 套餐商店 dialog is open: the header badge, the user menu and the quota notice all open it. */
export const useComboStoreDialog = create<{ open: boolean; show(): void; hide(): void }>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

export const openComboStore = () => useComboStoreDialog.getState().show();
