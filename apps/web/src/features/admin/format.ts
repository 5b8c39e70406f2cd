/** How admin pages name a user: nickname, else account, else the id. */
export function userLabel(user: { nickname: string | null; account: string | null; userId: string }): string {
  return user.nickname || user.account || user.userId;
}
