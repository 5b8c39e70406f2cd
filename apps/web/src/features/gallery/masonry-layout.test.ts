import { describe, expect, it } from 'vitest';
import { masonryColumnCount, masonryColumns } from './masonry-layout';

const work = (id: string, width: number, height: number) => ({ id, width, height });
const aspect = (item: { width: number; height: number }) => item.height / item.width;
const ids = (columns: { id: string }[][]) => columns.map((column) => column.map((item) => item.id));

describe('masonryColumns', () => {
  it('puts the first works side by side, left to right, before any column gets a second', () => {
    const works = ['1', '2', '3', '4'].map((id) => work(id, 512, 768));
    expect(ids(masonryColumns(works, 4, aspect))).toEqual([['1'], ['2'], ['3'], ['4']]);
  });

  it('never stacks two works in one column while another column is empty', () => {
    const works = [work('1', 512, 512), work('2', 512, 512), work('3', 512, 512)];
    expect(ids(masonryColumns(works, 4, aspect))).toEqual([['1'], ['2'], ['3'], []]);
  });

  it('sends each next work to the shortest column, the leftmost on a tie', () => {
    const works = [
      work('tall', 512, 1024),
      work('square', 512, 512),
      work('wide', 1024, 512),
      work('next', 512, 512),
      work('after', 512, 512),
    ];
    // Heights after the first row: tall 2, square 1, wide 0.5: "next" goes under wide, "after" under square.
    expect(ids(masonryColumns(works, 3, aspect))).toEqual([['tall'], ['square', 'after'], ['wide', 'next']]);
  });

  it('keeps the order of the works within every column', () => {
    const works = Array.from({ length: 20 }, (_, i) => work(String(i), 512, 512 + (i % 3) * 256));
    for (const column of masonryColumns(works, 3, aspect)) {
      const order = column.map((item) => Number(item.id));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(
      masonryColumns(works, 3, aspect)
        .flat()
        .map((item) => item.id)
        .sort(),
    ).toEqual(works.map((item) => item.id).sort());
  });

  it('treats a work without a usable size as square', () => {
    const works = [work('broken', 0, 0), work('a', 512, 512), work('b', 512, 512)];
    expect(ids(masonryColumns(works, 2, aspect))).toEqual([['broken', 'b'], ['a']]);
  });
});

describe('masonryColumnCount', () => {
  it('fits as many columns of at least 240 px as the width allows, two on a phone', () => {
    expect(masonryColumnCount(1200)).toBe(4);
    expect(masonryColumnCount(1392)).toBe(5);
    expect(masonryColumnCount(375)).toBe(2);
    expect(masonryColumnCount(280)).toBe(1);
  });
});
