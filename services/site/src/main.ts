#!/usr/bin/env node
import { memberMain } from '@gridemu/live';

// One grid site: the local scheduler, metascheduler and executor of `--site` (item 3).
process.exitCode = await memberMain(process.argv.slice(2), { command: 'gridemu-site' });
