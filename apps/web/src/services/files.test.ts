import { describe, expect, it } from 'vitest';
import { fileIdOfUrl, fileUrl } from './files';

describe('file URLs', () => {
  it('round-trips a fileId through its URL', () => {
    expect(fileIdOfUrl(fileUrl('abc-DEF_123'))).toBe('abc-DEF_123');
  });

  it('finds no fileId in other addresses', () => {
    expect(fileIdOfUrl(null)).toBeUndefined();
    expect(fileIdOfUrl('https://example.com/a.png')).toBeUndefined();
    expect(fileIdOfUrl('/api/files/a/b')).toBeUndefined();
  });
});
