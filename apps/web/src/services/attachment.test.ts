import { describe, expect, it } from 'vitest';
import { attachmentName } from './attachment';

describe('attachmentName', () => {
  it('reads a quoted or bare filename', () => {
    expect(attachmentName('attachment; filename="huafang-works-2025-01-02.zip"')).toBe('huafang-works-2025-01-02.zip');
    expect(attachmentName('attachment; filename=works.zip; size=3')).toBe('works.zip');
  });

  it('prefers the UTF-8 name, which carries Chinese', () => {
    expect(attachmentName(`attachment; filename="works.zip"; filename*=UTF-8''%E4%BD%9C%E5%93%81.zip`)).toBe(
      '作品.zip',
    );
  });

  it('falls back to the plain name when the encoded one is broken, and answers null without a name', () => {
    expect(attachmentName(`attachment; filename="a.zip"; filename*=UTF-8''%E4%ZZ`)).toBe('a.zip');
    expect(attachmentName('attachment')).toBeNull();
    expect(attachmentName(null)).toBeNull();
  });
});
