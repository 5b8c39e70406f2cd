const HAN = /\p{Script=Han}/u;

/** Whether the text holds Chinese characters, i.e. whether it needs translating before the engine reads it. */
export function hasChinese(text: string): boolean {
  return HAN.test(text);
}
