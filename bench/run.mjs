// `npm run bench [NAME...]`: runs the benchmark scenarios (all by default) against the built
// dist/ and prints one Markdown section each, ready to paste into the README.
// Each scenario is a module in this folder exporting `title` and `async run(log)` -> Markdown.

const SCENARIOS = ['poller', 'printing', 'listing', 'detect', 'prompt', 'bridge', 'attach', 'dashboard', 'frames', 'hooks', 'hosts', 'fleet', 'notice', 'status', 'exits'];

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : SCENARIOS;
for (const name of names) {
  if (!SCENARIOS.includes(name)) {
    console.error(`unknown benchmark "${name}" (known: ${SCENARIOS.join(', ')})`);
    process.exit(2);
  }
}
console.log(`# corral benchmarks (${new Date().toISOString()}, node ${process.version})\n`);
for (const name of names) {
  const scenario = await import(`./${name}.mjs`);
  const started = Date.now();
  const markdown = await scenario.run((line) => console.error(`[${name}] ${line}`));
  console.log(`## ${scenario.title}\n\n${markdown}\n\n_(${((Date.now() - started) / 1000).toFixed(0)} s)_\n`);
}
