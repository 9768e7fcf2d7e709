export { UsageError } from '@gridemu/model';

/** 0: done. 1: the run failed. 2: bad input (experiment file, trace, command line). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;
