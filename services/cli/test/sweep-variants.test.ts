import { describe, expect, it } from 'vitest';
import { folderName, parseAxes, variants } from '../src/sweep/variants.js';

describe('parseAxes: the --vary options of a sweep', () => {
  it('reads each field and its values, trimmed', () => {
    expect(parseAxes(['meta.k=1, 2', 'network.latency_ms=0,10'], ['meta.claim_timeout_s=60'])).toEqual([
      { path: 'meta.k', values: ['1', '2'] },
      { path: 'network.latency_ms', values: ['0', '10'] },
    ]);
  });

  it('refuses an empty value, a value twice, a field twice and a --set of a swept field that no run keeps', () => {
    expect(() => parseAxes(['meta.k=1,,2'], [])).toThrow('--vary meta.k=1,,2: an empty value');
    expect(() => parseAxes(['meta.k=1,2,'], [])).toThrow('an empty value');
    expect(() => parseAxes(['meta.k=1,2,1'], [])).toThrow('--vary meta.k=1,2,1: 1 is given twice');
    expect(() => parseAxes(['meta.k=1,2', 'meta.k=3'], [])).toThrow(
      '--vary meta.k is given twice: list all its values in one --vary meta.k=v1,v2,...',
    );
    expect(() => parseAxes(['meta.k=1,2'], ['seed=3', 'meta.k=3'])).toThrow(
      '--set meta.k=3 gives a field that --vary sweeps a value none of its runs has (1, 2)',
    );
    // One of the swept values is what the spec is first checked with (paper 004's report needs it).
    expect(parseAxes(['meta.scheme=shadow-classes'], ['meta.scheme=shadow-classes'])).toHaveLength(1);
  });

  it('gives every combination a folder of its own', () => {
    const runs = variants(parseAxes(['meta.k=1,2', 'network.latency_ms=0,10'], []), [1, 2]);
    expect(runs).toHaveLength(8);
    expect(new Set(runs.map(folderName)).size).toBe(8);
  });
});
