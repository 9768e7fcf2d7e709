#!/usr/bin/env node
import { memberMain } from '@gridemu/live';

// GRUBER's processes (paper 002 §2.2, Figure 1): a decision point, the engine at its location `gruber` (or
// `gruber-2`, ... under DI-GRUBER); or the submit hosts with their site selectors, at `submit`.
process.exitCode = await memberMain(process.argv.slice(2), {
  command: 'gridemu-gruber',
  member: 'gruber',
  hosts:
    "GRUBER's own parts: a decision point (the engine, answering from the site monitors' reports), or the submit hosts with their site selectors (--member submit)",
});
