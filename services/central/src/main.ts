#!/usr/bin/env node
import { memberMain } from '@gridemu/live';

// The centralized or hierarchical metascheduler, at its own location `central` (paper 001 §2.1.1-2).
process.exitCode = await memberMain(process.argv.slice(2), {
  command: 'gridemu-central',
  member: 'central',
  hosts: 'the central metascheduler (centralized, hierarchical)',
});
