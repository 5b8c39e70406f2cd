import { describe, expect, it } from 'vitest';
import { stepTabLabel } from './step-label';

describe('step tab label', () => {
  it('numbers the step and adds its own name', () => {
    expect(stepTabLabel(1, '高清放大')).toBe('步骤 2 高清放大');
  });

  it('does not repeat a name that only numbers the step (步骤 1 步骤 1)', () => {
    expect(stepTabLabel(0, '步骤 1')).toBe('步骤 1');
    expect(stepTabLabel(0, '步骤1')).toBe('步骤 1');
    // After a reorder the old number would mislead: the tab's position counts.
    expect(stepTabLabel(1, '步骤 1')).toBe('步骤 2');
    expect(stepTabLabel(2, '  ')).toBe('步骤 3');
  });
});
