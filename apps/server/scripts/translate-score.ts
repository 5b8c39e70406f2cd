/**
 * npm run translate:score — the offline dictionary translator against the project's prompt set
 * (apps/server/test/translate/prompt-set.zh-en.tsv). `--all` lists every line, otherwise the lines it gets worst.
 */
import { HELD_OUT_SET_FILE, readPromptSet, scoreSet } from '../test/translate/prompt-score.js';

const pairs = readPromptSet();
const score = scoreSet(pairs);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const all = process.argv.includes('--all');
const shown = all
  ? score.lines
  : [...score.lines].sort((a, b) => a.wordF1 + a.orderF1 - b.wordF1 - b.orderF1).slice(0, 30);
for (const line of shown) {
  console.log(
    `${pct(line.wordF1).padStart(6)} ${pct(line.orderF1).padStart(6)}  ${line.zh}\n               want: ${line.en}\n                got: ${line.got}`,
  );
}
console.log(`\n${pairs.length} lines`);
console.log(`content-word F1:   ${pct(score.wordF1)}`);
console.log(`content-bigram F1: ${pct(score.orderF1)}`);
console.log(`exact (content words, in order): ${pct(score.exact)}`);

const heldOut = scoreSet(readPromptSet(HELD_OUT_SET_FILE));
console.log(
  `\nheld out (${heldOut.lines.length} lines, never tuned on): content-word F1 ${pct(heldOut.wordF1)}, content-bigram F1 ${pct(heldOut.orderF1)}, exact ${pct(heldOut.exact)}`,
);
if (all) for (const line of heldOut.lines) console.log(`  ${line.zh}  →  ${line.got}   (want: ${line.en})`);
