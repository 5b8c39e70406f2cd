import type { CurrentUser, LoginResult } from '@huafang/contracts';
import { create } from 'zustand';
import { queryClient } from '../query-client';
import {
  type AdminFlag,
  browserStorage,
  clearStoredSession,
  EMPTY_SESSION,
  readStoredSession,
  type StoredSession,
  writeStoredSession,
} from './session-storage';

/** The dialogs with open flags of spec §2 that belong to the account area. */
export type DialogName =
  | 'login'
  | 'resetPassword'
  | 'register'
  | 'invite'
  | 'nickname'
  | 'editNickname'
  | 'editAccount'
  | 'avatar'
  | 'password'
  | 'bindMobile'
  | 'unbindMobile'
  | 'help'
  | 'profile'
  | 'userMenu'
  | 'guidanceTitle'
  | 'guidanceContent';

const CLOSED_DIALOGS: Record<DialogName, boolean> = {
  login: false,
  resetPassword: false,
  register: false,
  invite: false,
  nickname: false,
  editNickname: false,
  editAccount: false,
  avatar: false,
  password: false,
  bindMobile: false,
  unbindMobile: false,
  help: false,
  profile: false,
  userMenu: false,
  guidanceTitle: false,
  guidanceContent: false,
};

interface SessionState extends StoredSession {
  /** Spec §2: while true the app shows a blank screen. */
  initialLoading: boolean;
  dialogs: Record<DialogName, boolean>;
  /** The userId of a code-405 answer, waiting for signUp. */
  pendingUserId: string | null;
  /** Why the user must log in again (password changed, session expired), shown in the login dialog. */
  loginNotice: string | null;

  /** Stores a login or signUp answer (token, admin flag, permissions) and starts from clean caches. */
  signIn(result: Pick<LoginResult, 'token' | 'admin' | 'permissions'>): void;
  setUserData(user: CurrentUser): void;
  /** Clears the five stored keys, every cache and every dialog. */
  signOut(): void;
  setInitialLoading(loading: boolean): void;
  /** Opens one dialog and closes the others: the account dialogs replace each other. */
  openDialog(name: DialogName): void;
  closeDialog(name: DialogName): void;
  closeAllDialogs(): void;
  openRegister(userId: string): void;
  setLoginNotice(notice: string | null): void;
}

const storage = browserStorage();

export const useSession = create<SessionState>()((set) => ({
  ...readStoredSession(storage),
  initialLoading: false,
  dialogs: { ...CLOSED_DIALOGS },
  pendingUserId: null,
  loginNotice: null,

  signIn({ token, admin, permissions }) {
    queryClient.clear();
    const patch: Partial<StoredSession> = { token, isLoginSuccess: true, isAdmin: admin, permissions, userData: null };
    writeStoredSession(storage, patch);
    set({ ...patch, loginNotice: null });
  },
  setUserData(user) {
    const patch = { userData: user, isAdmin: user.admin satisfies AdminFlag };
    writeStoredSession(storage, patch);
    set(patch);
  },
  signOut() {
    clearStoredSession(storage);
    queryClient.clear();
    set({ ...EMPTY_SESSION, dialogs: { ...CLOSED_DIALOGS }, pendingUserId: null, loginNotice: null });
  },
  setInitialLoading(initialLoading) {
    set({ initialLoading });
  },
  openDialog(name) {
    set({ dialogs: { ...CLOSED_DIALOGS, [name]: true } });
  },
  closeDialog(name) {
    set((state) => ({ dialogs: { ...state.dialogs, [name]: false } }));
  },
  closeAllDialogs() {
    set({ dialogs: { ...CLOSED_DIALOGS } });
  },
  openRegister(userId) {
    set({ pendingUserId: userId, dialogs: { ...CLOSED_DIALOGS, register: true } });
  },
  setLoginNotice(loginNotice) {
    set({ loginNotice });
  },
}));
