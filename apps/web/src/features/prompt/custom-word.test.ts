import { describe, expect, it } from 'vitest';
import { customPromptItem, holdsWord, newCustomWordId } from './custom-word';

describe('customPromptItem', () => {
  it('keeps the Chinese as the label and text, and its English for models that read only English', () => {
    expect(customPromptItem('c1', ' 水墨画 ', ' ink wash painting ')).toEqual({
      id: 'c1',
      groupName: '水墨画',
      promptText: '水墨画',
      english: 'ink wash painting',
      custom: '1',
    });
  });

  it('sends the word itself without a translation (English typed, or the translation failed)', () => {
    expect(customPromptItem('c2', 'cyberpunk')).toMatchObject({ groupName: 'cyberpunk', promptText: 'cyberpunk' });
    expect(customPromptItem('c3', '远山', '  ')).toEqual({
      id: 'c3',
      groupName: '远山',
      promptText: '远山',
      custom: '1',
    });
  });
});

describe('newCustomWordId', () => {
  it('is short, prefixed and differs with time and chance', () => {
    const id = newCustomWordId(1_700_000_000_000, 0.123456789);
    expect(id).toMatch(/^custom-[0-9a-z]+-[0-9a-z]{1,6}$/);
    expect(id.length).toBeLessThanOrEqual(64);
    expect(newCustomWordId(1, 0.5)).not.toBe(newCustomWordId(1, 0.25));
  });
});

describe('holdsWord', () => {
  const group = [customPromptItem('a', '水墨画', 'ink wash painting'), customPromptItem('b', 'masterpiece')];

  it('matches the same id, label or English text, ignoring case', () => {
    expect(holdsWord(group, customPromptItem('a', '别的'))).toBe(true);
    expect(holdsWord(group, customPromptItem('x', '水墨画', 'ink painting'))).toBe(true);
    expect(holdsWord(group, customPromptItem('y', '水墨', 'Ink Wash Painting'))).toBe(true);
    expect(holdsWord(group, customPromptItem('z', 'MasterPiece'))).toBe(true);
  });

  it('lets a new word in', () => {
    expect(holdsWord(group, customPromptItem('n', '远山', 'distant mountains'))).toBe(false);
  });
});
