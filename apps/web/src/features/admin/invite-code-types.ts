/** Invite code types: 01 shows the new-user guidance on /draw, 02 is a plain invite. */
export const INVITE_CODE_TYPES = [
  { value: '01', label: '新手引导' },
  { value: '02', label: '普通' },
] as const;

export function inviteCodeTypeLabel(codeType: string): string {
  return INVITE_CODE_TYPES.find((type) => type.value === codeType)?.label ?? codeType;
}
