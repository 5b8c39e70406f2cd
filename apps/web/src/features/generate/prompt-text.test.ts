import { describe, expect, it } from 'vitest';
import { promptGroupFromText } from './prompt-text';

describe('a typed prompt as prompt group items', () => {
  it('splits on commas of both widths, 、, semicolons and line breaks, dropping blanks and repeats', () => {
    const group = promptGroupFromText(' 水墨画，远山, 云雾\n\n留白、远山；ink wash ', 'free');
    expect(group.map((item) => item.groupName)).toEqual(['水墨画', '远山', '云雾', '留白', 'ink wash']);
  });

  it('marks every word custom "1" with its text as label and prompt', () => {
    expect(promptGroupFromText('猫', 'free')).toEqual([
      { id: 'free-0', groupName: '猫', promptText: '猫', custom: '1' },
    ]);
  });

  it('gives nothing for an empty prompt', () => {
    expect(promptGroupFromText(' ,\n，', 'free')).toEqual([]);
  });
});
