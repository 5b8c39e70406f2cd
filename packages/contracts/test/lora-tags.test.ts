import { describe, expect, it } from 'vitest';
import { hasLoraTag, loraTagsIn, withoutLoraTags } from '../src/lora-tags.js';

describe('<lora:name:weight> tags', () => {
  it('reads A1111 and LyCORIS tags, full-width punctuation, a missing weight as 1 and a third field read past', () => {
    expect(loraTagsIn('a, <lora:ink:0.6>, ＜lora：neon＞, <LYCO:grain:0.3:0.5>, <lora:pastel:>')).toEqual([
      { name: 'ink', weight: 0.6 },
      { name: 'neon', weight: 1 },
      { name: 'grain', weight: 0.3 },
      { name: 'pastel', weight: 1 },
    ]);
    expect(loraTagsIn('<lora:ink:浓>')[0]?.weight).toBeNaN();
    expect(loraTagsIn('<hypernet:x:1>, lora: x')).toEqual([]);
  });

  it('takes the tags out and tidies the commas they leave, keeping the words and their own punctuation', () => {
    expect(withoutLoraTags('<lora:x:1>, a, <lora:y:0.5>, (b, c:1.2)，d <lora:z:1>')).toBe('a, (b, c:1.2)，d');
    expect(withoutLoraTags('<lora:x:1>')).toBe('');
    expect(hasLoraTag('灯塔＜lora：ink：0.5＞')).toBe(true);
    expect(hasLoraTag('a <b> c')).toBe(false);
  });
});
