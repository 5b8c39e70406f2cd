import { MARK_POSITION_LABELS, type MarkPosition } from '@huafang/contracts';

/** Top row first, as the corners sit on a picture: the options are laid out two by two like the image. */
const CORNERS: MarkPosition[] = ['topLeft', 'topRight', 'bottomLeft', 'bottomRight'];

export const MARK_POSITION_OPTIONS = CORNERS.map((value) => ({ value, label: MARK_POSITION_LABELS[value] }));

/** What switching the visible mark off means (docs/compliance.md § 第九条), said before and while it is off. */
export const MARK_OFF_WARNING =
  '《人工智能生成合成内容标识办法》第九条只允许在用户申请时提供不含显式标识的内容，且须先在用户协议中明确其标识义务和使用责任，并留存提供对象信息等日志不少于六个月。这个开关对全站生效：关闭后，所有用户下载、分享的原图和灵感广场的原图都不再带标识文字。未满足上述条件时请保持开启。隐式标识不受影响，照常写入。';
