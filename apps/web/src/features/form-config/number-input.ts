import type { FormConfigItem } from '@huafang/contracts';

/**
 * The keyboard a phone shows for a number field: digits only for whole numbers, digits and a decimal point for
 * fractional ones (CFG 7.5, 重绘幅度 0.75). A whole number with a fractional step is fractional too.
 */
export function numberInputMode(item: Pick<FormConfigItem, 'step' | 'min' | 'max'>): 'numeric' | 'decimal' {
  const whole = (value: number | undefined) => value === undefined || Number.isInteger(value);
  return whole(item.step) && whole(item.min) && whole(item.max) ? 'numeric' : 'decimal';
}
