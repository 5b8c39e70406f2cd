import { ERROR_NOTICE_SECONDS, MSG, NOTICE_WIDTH_PX, TOAST_SECONDS } from '@huafang/contracts';
import { message as staticMessage, notification as staticNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { createNoticeGate } from './notice-gate';

export type ToastType = 'error' | 'success' | 'info' | 'warning';

/**
 * The request layer runs outside React, so it reaches antd through instances captured by <NoticeBridge>
 * (they carry the app's theme and locale); before that mounts, antd's static functions stand in.
 */
let messageApi: MessageInstance = staticMessage;
let notificationApi: NotificationInstance = staticNotification;

export function bindNoticeApis(apis: { message: MessageInstance; notification: NotificationInstance }): void {
  messageApi = apis.message;
  notificationApi = apis.notification;
}

const toastGate = createNoticeGate();
const errorNoticeGate = createNoticeGate();

/** Spec §8 toast: one at a time, a newer one is dropped while the current one shows; error and 3 s by default. */
export function toast(content: string, type: ToastType = 'error', seconds: number = TOAST_SECONDS): boolean {
  if (!toastGate.tryOpen(Date.now(), seconds * 1000)) return false;
  messageApi.open({ type, content, duration: seconds, onClose: () => toastGate.release() });
  return true;
}

/** Spec §8 HTTP notice: titled 错误提示, 2.5 s, top right, 384 px, one at a time. */
export function errorNotice(description: string): boolean {
  if (!errorNoticeGate.tryOpen(Date.now(), ERROR_NOTICE_SECONDS * 1000)) return false;
  notificationApi.error({
    title: MSG.errorTitle,
    description,
    duration: ERROR_NOTICE_SECONDS,
    placement: 'topRight',
    style: { width: NOTICE_WIDTH_PX },
    onClose: () => errorNoticeGate.release(),
  });
  return true;
}
