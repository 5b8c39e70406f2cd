import { AvatarDialog } from './AvatarDialog';
import { BindMobileDialog } from './BindMobileDialog';
import { EditAccountDialog } from './EditAccountDialog';
import { EditNicknameDialog } from './EditNicknameDialog';
import { GuidanceDialog } from './GuidanceDialog';
import { HelpDialog } from './HelpDialog';
import { InviteDialog } from './InviteDialog';
import { LoginDialog } from './LoginDialog';
import { NicknameDialog } from './NicknameDialog';
import { PasswordDialog } from './PasswordDialog';
import { ProfileDialog } from './ProfileDialog';
import { RegisterDialog } from './RegisterDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { UnbindMobileDialog } from './UnbindMobileDialog';

/** Every account dialog, mounted once at the root so any page (and the request layer) can open them. */
export function AccountDialogs() {
  return (
    <>
      <LoginDialog />
      <ResetPasswordDialog />
      <RegisterDialog />
      <NicknameDialog />
      <InviteDialog />
      <EditNicknameDialog />
      <EditAccountDialog />
      <AvatarDialog />
      <PasswordDialog />
      <BindMobileDialog />
      <UnbindMobileDialog />
      <HelpDialog />
      <ProfileDialog />
      <GuidanceDialog />
    </>
  );
}
