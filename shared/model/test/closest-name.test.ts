import { describe, expect, it } from 'vitest';
import { closestName, namesStartingWith } from '../src/closest-name.js';

describe('closestName', () => {
  const live = ['speedup', 'journal', 'report_interval_ms', 'warm_up_jobs'];

  it('finds a key a letter or two away, a swap of neighbours counted as one', () => {
    expect(closestName('speed_up', live)).toBe('speedup');
    expect(closestName('jouranl', live)).toBe('journal');
    expect(closestName('warmup_jobs', live)).toBe('warm_up_jobs');
  });

  it('finds a key the typed one begins or ends', () => {
    expect(closestName('latency', ['latency_ms', 'jitter_ms'])).toBe('latency_ms');
    expect(closestName('interval_ms', live)).toBe('report_interval_ms');
  });

  it('guesses nothing when no key is close, and allows one edit only in a short key', () => {
    expect(closestName('hops', ['latency_ms', 'jitter_ms', 'matrix', 'transfer'])).toBeUndefined();
    expect(closestName('ab', ['k'])).toBeUndefined();
    expect(closestName('kk', ['k'])).toBe('k');
    expect(closestName('sxxd', ['seed', 'name'])).toBeUndefined();
    expect(closestName('sedd', ['seed', 'name'])).toBe('seed');
  });

  it('prefers the closest of several', () => {
    expect(closestName('site', ['sites', 'size_x'])).toBe('sites');
    expect(closestName('shadow-class', ['shadow', 'mct', 'shadow-classes'])).toBe('shadow-classes');
  });
});

describe('namesStartingWith', () => {
  it('finds the names a shortened one begins, whatever the case, at most five in the order given', () => {
    const names = ['KTH-SP2-1996-2.1-cln.swf.gz', 'kth-slices.txt', 'LCG-2005-1.swf.gz'];
    expect(namesStartingWith('kth-sp2', names)).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz']);
    expect(namesStartingWith('KTH', names)).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz', 'kth-slices.txt']);
    expect(namesStartingWith('KT', names)).toEqual([]);
    const many = ['abc1', 'abc2', 'abc3', 'abc4', 'abc5', 'abc6'];
    expect(namesStartingWith('abc', many)).toEqual(['abc1', 'abc2', 'abc3', 'abc4', 'abc5']);
    expect(namesStartingWith('abc', many, 2)).toEqual(['abc1', 'abc2']);
  });
});
