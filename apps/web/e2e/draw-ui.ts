import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { dialog, hidden, visible } from './ui';

/** Opens the task-selection dialog (选择模板 on an empty /draw, 切换 once a template is loaded) and picks one. */
export async function pickTemplate(page: Page, category: string, template: string): Promise<void> {
  await page
    .getByRole('button', { name: /选择模板|切换/ })
    .first()
    .click();
  const select = dialog(page, '选择任务模板');
  await visible(select);
  const tab = select.getByRole('tab', { name: category });
  // A tap that lands while the dialog's tab bar is still measuring its overflow can be lost; a person taps again.
  await expect
    .poll(
      async () => {
        if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
        return tab.getAttribute('aria-selected');
      },
      { timeout: 15_000 },
    )
    .toBe('true');
  await select.getByRole('button', { name: `选择模板 ${template}` }).click();
  await hidden(select);
  await visible(page.locator('.hf-draw-aside').getByText(`模板：${template}`));
}

/** Types a number into the form field labelled `label` (an InputNumber, or the number box beside a slider). */
export async function setNumber(scope: Locator, label: string, value: number): Promise<void> {
  const input = scope.getByRole('spinbutton', { name: label, exact: true });
  await input.fill(String(value));
  await input.blur();
}
