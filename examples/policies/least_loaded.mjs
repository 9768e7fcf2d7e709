#!/usr/bin/env node
// Paper 001's greedy distributed metascheduler as an external policy, in JavaScript (Node, which
// gridemu needs anyway): the same choices as least_loaded.py, so the same jobs.csv (docs/external.md).
import { createInterface } from 'node:readline';

let sites = []; // [{ id, cpus }] in the grid's order

/** The least-loaded candidate; ties to `origin` first, then the sites after it, wrapping round. */
function leastLoaded(candidates, loads, origin) {
  const start = Math.max(0, candidates.indexOf(origin));
  const rotated = [...candidates.slice(start), ...candidates.slice(0, start)];
  let best = rotated[0];
  for (const site of rotated) if ((loads.get(site) ?? 0) < (loads.get(best) ?? 0)) best = site;
  return best;
}

function decide(request) {
  if (request.type === 'hello') {
    sites = request.sites;
    return [];
  }
  if (request.type !== 'submit') return [];
  const { job, location: here } = request;
  const loads = new Map(request.loads.map((h) => [h.site, h.load]));
  const fits = sites.filter((s) => s.cpus >= job.procs).map((s) => s.id);
  let to = here; // wider than every site: its own site refuses it
  if (fits.length > 0 && fits.includes(here)) {
    const best = leastLoaded(fits, loads, here);
    to = (loads.get(best) ?? 0) < (loads.get(here) ?? 0) ? best : here;
  } else if (fits.length > 0) to = leastLoaded(fits, loads, here);
  return [{ do: 'send', job: job.id, to }];
}

createInterface({ input: process.stdin }).on('line', (line) => {
  process.stdout.write(JSON.stringify({ v: 1, actions: decide(JSON.parse(line)) }) + '\n');
});
