import { describe, expect, it } from 'vitest';
import { Rng } from '@gridemu/runtime';
import { availableSites, SiteSelector, type SiteView } from '../src/gruber/index.js';

const SITES = ['a', 'b', 'c', 'd'];
const offer = (...sites: string[]) => sites.map((site) => ({ site, used: 0 }));

describe('GRUBER site selectors (paper 002 §2.2, §4.1), hand-checked', () => {
  it('G-RR cycles through the available sites in site order', () => {
    const s = new SiteSelector('G-RR', SITES, new Rng(1));
    const picks: string[] = [];
    for (const offered of [
      offer('a', 'b', 'c'),
      offer('a', 'b', 'c'),
      offer('a', 'b', 'c'),
      offer('a', 'b', 'c'),
      offer('a', 'c', 'd'),
      offer('b'),
    ]) {
      const site = s.choose(offered)!;
      s.dispatched(site, picks.length);
      picks.push(site);
    }
    // After c the cursor is at d, which is not offered, so it wraps to a; after a it skips b (not offered) to c.
    expect(picks).toEqual(['a', 'b', 'c', 'a', 'c', 'b']);
  });

  it('G-LRU picks the site chosen longest ago; one never chosen counts as oldest', () => {
    const s = new SiteSelector('G-LRU', SITES, new Rng(1));
    s.dispatched('a', 10);
    s.dispatched('b', 5);
    s.dispatched('c', 20);
    expect(s.choose(offer('a', 'b', 'c'))).toBe('b');
    expect(s.choose(offer('a', 'c'))).toBe('a');
    expect(s.choose(offer('a', 'b', 'c', 'd'))).toBe('d');
  });

  it('G-LU picks the least used site; ties go to the earlier site', () => {
    const s = new SiteSelector('G-LU', SITES, new Rng(1));
    expect(
      s.choose([
        { site: 'a', used: 0.5 },
        { site: 'b', used: 0.25 },
        { site: 'c', used: 0.75 },
      ]),
    ).toBe('b');
    expect(
      s.choose([
        { site: 'c', used: 0.1 },
        { site: 'd', used: 0.1 },
      ]),
    ).toBe('c');
  });

  it('G-Obs fills a site one unstarted job at a time, and waits for a start before sending there again', () => {
    const s = new SiteSelector('G-Obs', ['a', 'b'], new Rng(1));
    expect(s.choose(offer('a', 'b'))).toBe('a');
    s.dispatched('a', 0);
    expect(s.choose(offer('a', 'b'))).toBe('b');
    s.dispatched('b', 0);
    expect(s.choose(offer('a', 'b'))).toBeUndefined(); // both have a job that has not started
    s.started('b');
    expect(s.choose(offer('a', 'b'))).toBe('b');
    s.returned('a'); // a's job came back without starting (withdrawn, or failed)
    expect(s.choose(offer('a', 'b'))).toBe('a');
  });

  it('G-RA and S-RA draw among what they are offered, from their own stream', () => {
    const picks = (name: 'G-RA' | 'S-RA') => {
      const s = new SiteSelector(name, SITES, new Rng(7));
      return Array.from({ length: 200 }, () => s.choose(offer('b', 'd')));
    };
    expect(new Set(picks('G-RA'))).toEqual(new Set(['b', 'd']));
    expect(picks('S-RA')).toEqual(picks('S-RA'));
    expect(new SiteSelector('S-RA', SITES, new Rng(1)).asksEngine).toBe(false);
    expect(new SiteSelector('G-RA', SITES, new Rng(1)).asksEngine).toBe(true);
  });
});

describe('get-avail-sites (paper 002 §2.2) with the disk test (§2.3)', () => {
  const policy = {
    epoch_s: 1000,
    site_policy: {
      s: { ivdgl: { cpu: 50, epoch: 50, disk: 50, burst: 50 }, atlas: { cpu: 50, epoch: 50, disk: 50, burst: 50 } },
      x: { ivdgl: { cpu: 25, epoch: 25, disk: 25, burst: 100 }, atlas: { cpu: 75, epoch: 75, disk: 75, burst: 75 } },
    },
  };
  const usage = (vo: string, running: number, queued = 0, epoch = 0, disk = 0) => ({
    vo,
    running_cpus: running,
    queued_cpus: queued,
    queued_jobs: queued,
    epoch_cpu_s: epoch,
    disk_mb: disk,
  });
  const view = (
    site: string,
    vos: ReturnType<typeof usage>[],
    disk_mb = Infinity,
    pending = new Map<string, { cpus: number; disk_mb: number }>(),
  ): SiteView => ({
    site,
    cpus: 10,
    disk_mb,
    free_cpus: 10 - vos.reduce((n, u) => n + u.running_cpus, 0),
    vos: new Map(vos.map((u) => [u.vo, u])),
    pending,
  });
  const job = { vo: 'ivdgl', cpus: 1, disk_mb: 1 };
  const sites = (views: SiteView[], exclude: string[] = []) =>
    availableSites(views, policy, job, new Set(exclude)).map((c) => c.site);

  it('case 2: under its burst allocation with room left by the others', () => {
    expect(sites([view('s', [usage('ivdgl', 4), usage('atlas', 5)])])).toEqual(['s']); // 4 + 1 <= 5, 5 + 1 <= 10
    expect(sites([view('s', [usage('ivdgl', 5), usage('atlas', 0)])])).toEqual([]); // at BP = 5, not extensible
    expect(sites([view('s', [usage('ivdgl', 3, 2), usage('atlas', 0)])])).toEqual([]); // queued CPUs count too
    expect(sites([view('s', [usage('ivdgl', 4)], Infinity, new Map([['ivdgl', { cpus: 1, disk_mb: 0 }]]))])).toEqual(
      [],
    ); // so do jobs just sent
  });

  it('an extensible allocation is available whenever the other VOs leave room', () => {
    expect(sites([view('x', [usage('ivdgl', 8), usage('atlas', 1)])])).toEqual(['x']);
    expect(sites([view('x', [usage('ivdgl', 0), usage('atlas', 10)])])).toEqual([]);
  });

  it('case 1: a VO over its epoch allocation is skipped', () => {
    // EP = 50% of 10 CPUs x 1000 s = 5000 CPU-s.
    expect(sites([view('s', [usage('ivdgl', 0, 0, 5000)])])).toEqual(['s']);
    expect(sites([view('s', [usage('ivdgl', 0, 0, 5001)])])).toEqual([]);
  });

  it('disk: the VO share and the site total both hold the job', () => {
    expect(sites([view('s', [usage('ivdgl', 0, 0, 0, 49)], 100)])).toEqual(['s']); // 49 + 1 <= 50
    expect(sites([view('s', [usage('ivdgl', 0, 0, 0, 50)], 100)])).toEqual([]);
    expect(sites([view('s', [usage('ivdgl', 0), usage('atlas', 0, 0, 0, 99.5)], 100)])).toEqual([]);
  });

  it('leaves out excluded sites, and sites where the VO has no share', () => {
    const views = [view('s', []), view('x', [])];
    expect(sites(views)).toEqual(['s', 'x']);
    expect(sites(views, ['s'])).toEqual(['x']);
    expect(availableSites(views, policy, { ...job, vo: 'cms' }, new Set())).toEqual([]);
  });
});
