// Reading speed of the quadkit command's input files, alone: the reading table of the `files`
// workload (bench/workloads/files.js, which `npm run bench` runs with its join table), printed
// as a plain table. Data files are cached in $TMPDIR/quadkit-bench-files.
//
//   npm run build && node bench/files.js          quadkit's readers, JSON.parse and mapshaper
//   node bench/files.js --runs 3                  the median of 3 rounds (a busy machine)
//   node bench/files.js --quadkit                 quadkit's readers only (no peers)
import { dataDir, makeFiles, readingRows } from './workloads/files.js';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt < 0 ? 1 : Math.max(1, Number(process.argv[runsAt + 1]) || 1);
const dir = dataDir(false);
await makeFiles(dir);
const { rows, note } = await readingRows(dir, { runs, peers: !process.argv.includes('--quadkit') });

console.log(
  `Read pass over the same data (MB/s, ${process.version}${runs > 1 ? `, median of ${runs}` : ''}):\n`,
);
console.log('| reader | MB | features | s | MB/s | µs per feature |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.mb.toFixed(1)} | ${r.count || ''} | ${r.seconds.toFixed(2)} | ${(r.mb / r.seconds).toFixed(1)} | ${r.count ? ((r.seconds * 1e6) / r.count).toFixed(2) : ''} |`,
  );
if (note) console.log(`\n${note}`);
