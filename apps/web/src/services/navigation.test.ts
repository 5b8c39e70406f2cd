import { expect, it } from 'vitest';
import { drawTarget, rememberDrawTarget } from './navigation';

it('returns to the /draw address asked for before logging in, once; other pages are not remembered', () => {
  expect(drawTarget()).toBe('/draw');
  rememberDrawTarget('/myGallery', '?x=1');
  expect(drawTarget()).toBe('/draw');
  rememberDrawTarget('/draw', '?initImage=abc');
  expect(drawTarget()).toBe('/draw?initImage=abc');
  expect(drawTarget()).toBe('/draw');
});
