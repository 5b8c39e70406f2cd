import { BizCode, GUIDANCE_CODE_TYPE, type LoginResult, MSG } from '@huafang/contracts';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { outLogin } from '../../services/auth';
import { LOGIN_PATH } from '../../services/navigation';
import { toast } from '../../services/notices';
import { hasCode } from '../../services/request-error';
import { acceptInviteCode, skipInviteCode } from '../../services/user';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from './current-user';
import { useResumePending } from './use-resume-pending';

export const PASSWORD_CHANGED_MSG = '密码已修改，请重新登录';
export const SIGNED_UP_MSG = '注册成功，可稍后在「个人信息」里设置密码';

function readUserId(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { userId } = data as { userId?: unknown };
  return typeof userId === 'string' && userId ? userId : null;
}

/** The account transitions of spec §4, shared by every account dialog. */
export function useAccountFlow() {
  const navigate = useNavigate();
  const resumePending = useResumePending();

  return useMemo(() => {
    const session = () => useSession.getState();

    /**
     * Login (or one-step sign-up) succeeded: store it, greet, load the user. What the guest was doing resumes
     * (use-resume-pending.ts); otherwise /draw, or the optional invite step once (docs/accounts.md: an invite is not
     * needed to create). Admins run the site and are never asked for one; a user who closed it is not asked again.
     */
    async function completeLogin(result: LoginResult, options: { created?: boolean } = {}): Promise<void> {
      session().signIn(result);
      toast(options.created ? SIGNED_UP_MSG : MSG.loginSuccess, 'success');
      const user = await loadCurrentUser();
      if (await resumePending()) return;
      if (user.invite || user.admin === 'true' || user.inviteSkipped) {
        session().closeAllDialogs();
        navigate('/draw');
      } else {
        session().openDialog('invite');
      }
    }

    /** After 完善资料 without an invite code: what the guest was doing, else /omnibus (spec §4). */
    async function completeProfile(): Promise<void> {
      await loadCurrentUser();
      if (await resumePending()) return;
      session().closeAllDialogs();
      navigate('/omnibus');
    }

    /** Code 405: the account is not registered, so continue with the register dialog. */
    function handleUnregistered(error: unknown, options: { showMessage: boolean }): boolean {
      if (!hasCode(error, BizCode.UNREGISTERED)) return false;
      const userId = readUserId(error.data);
      if (!userId) {
        toast(error.message || MSG.unregistered);
        return true;
      }
      if (options.showMessage) toast(error.message || MSG.unregistered, 'info');
      session().openRegister(userId);
      return true;
    }

    /** Accepting an invite: /draw, fresh user info, and the guidance for code type 01. */
    async function acceptInvite(inviteCode: string): Promise<void> {
      const status = await acceptInviteCode(inviteCode);
      const user = await loadCurrentUser();
      session().closeAllDialogs();
      navigate('/draw');
      if ((status?.codeType ?? user.codeType) === GUIDANCE_CODE_TYPE) session().openDialog('guidanceTitle');
    }

    /**
     * 暂不填写 or closing the invite step: remembered on the user (no device asks again), and the user stays on
     * the page it was opened from. Closing never waits on the server; a failure to remember was already shown.
     */
    function declineInvite(): void {
      session().closeAllDialogs();
      void skipInviteCode()
        .then(() => loadCurrentUser())
        .catch(() => undefined);
    }

    /** Ends the local session even when the server call fails; that failure was already shown. */
    async function logout(): Promise<void> {
      await outLogin().catch(() => undefined);
      session().signOut();
      navigate(LOGIN_PATH);
    }

    /** The server revoked every token of the user, this one included. */
    function endSessionAfterPasswordChange(): void {
      session().signOut();
      session().setLoginNotice(PASSWORD_CHANGED_MSG);
      navigate(LOGIN_PATH);
      toast(PASSWORD_CHANGED_MSG, 'success');
    }

    return {
      completeLogin,
      completeProfile,
      handleUnregistered,
      acceptInvite,
      declineInvite,
      logout,
      endSessionAfterPasswordChange,
    };
  }, [navigate, resumePending]);
}
