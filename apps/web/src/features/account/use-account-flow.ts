import { BizCode, GUIDANCE_CODE_TYPE, type LoginResult, MSG } from '@huafang/contracts';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { outLogin } from '../../services/auth';
import { drawTarget, LOGIN_PATH } from '../../services/navigation';
import { toast } from '../../services/notices';
import { hasCode } from '../../services/request-error';
import { acceptInviteCode } from '../../services/user';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from './current-user';

export const PASSWORD_CHANGED_MSG = '密码已修改，请重新登录';

function readUserId(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { userId } = data as { userId?: unknown };
  return typeof userId === 'string' && userId ? userId : null;
}

/** The account transitions of spec §4, shared by every account dialog. */
export function useAccountFlow() {
  const navigate = useNavigate();

  return useMemo(() => {
    const session = () => useSession.getState();

    /**
     * Login succeeded: store it, greet, load the user, then /draw or the optional invite step (docs/accounts.md:
     * an invite is not needed to create). Admins run the site and are never asked for one.
     */
    async function completeLogin(result: LoginResult): Promise<void> {
      session().signIn(result);
      toast(MSG.loginSuccess, 'success');
      const user = await loadCurrentUser();
      if (user.invite || user.admin === 'true') {
        session().closeAllDialogs();
        navigate(drawTarget());
      } else {
        session().openDialog('invite');
      }
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
      navigate(drawTarget());
      if ((status?.codeType ?? user.codeType) === GUIDANCE_CODE_TYPE) session().openDialog('guidanceTitle');
    }

    function declineInvite(): void {
      session().closeAllDialogs();
      navigate('/omnibus');
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

    return { completeLogin, handleUnregistered, acceptInvite, declineInvite, logout, endSessionAfterPasswordChange };
  }, [navigate]);
}
