import { describe, expect, it } from 'vitest';
import { parseSubject, subjectOf } from '../src/subjects.js';

describe('subjects', () => {
  it('parseSubject reads back what subjectOf wrote', () => {
    const cases = [
      { target: { actor: 's1/scheduler' }, from: 's2/meta' },
      { target: { actor: 'driver' }, from: 's3/executor' },
      { target: { actor: 'central/central' }, from: 'driver' },
      { target: { topic: 'load' }, from: 's1/scheduler' },
    ];
    for (const { target, from } of cases) {
      expect(parseSubject('r7', subjectOf('r7', target, from))).toEqual({ target, sender: from.split('/')[0] });
    }
  });

  it('parseSubject refuses another run and subjects not of the form', () => {
    expect(parseSubject('r7', 'gridemu.r8.s1.scheduler.s2')).toBeUndefined();
    expect(parseSubject('r7', 'gridemu.r7.s1')).toBeUndefined();
    expect(parseSubject('r7', 'gridemu.r7.a.b.c.s2')).toBeUndefined();
    expect(parseSubject('r7', 'gridemu.r7.topic.load.extra.s1')).toBeUndefined();
    expect(parseSubject('r7', 'gridemu.r7..s1')).toBeUndefined();
    expect(parseSubject('r7', 'gridemu-ctl.r7.abort')).toBeUndefined();
  });
});
