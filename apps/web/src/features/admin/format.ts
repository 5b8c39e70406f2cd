import dayjs from '../../common/dayjs';

export function formatDateTime(value: string): string {
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm') : value;
}

/** How admin pages name a user: nickname, else account, else the id. */
export function userLabel(user: { nickname: string | null; account: string | null; userId: string }): string {
  return user.nickname || user.account || user.userId;
}
