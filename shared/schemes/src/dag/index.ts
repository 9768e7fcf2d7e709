import { metaTimescales, type SchemeModule } from '../scheme-module.js';
import { DAG_DURABLE, DAG_MESSAGES } from './messages.js';
import { readDagMeta } from './meta.js';
import { DAG_SCHEMES, SERVICES_LOCATION, siteBusyCounter } from './names.js';
import { planDag } from './plan.js';
import { DAG_METRICS, dagSummary } from './summary.js';
import { DAG_FUZZ } from './fuzz.js';
import { DAG_TASK_FIELDS, TORNADO_SOURCE, WFFORMAT_SOURCE } from './dag-sources.js';

/** Paper 003 (Chtepen et al.: adaptive rescheduling of DAG jobs with unknown run times, with checkpoints). */
export const dag: SchemeModule = {
  family: 'paper-003',
  fuzz: DAG_FUZZ,
  schemes: DAG_SCHEMES,
  // The general services' state and what each site was sent are durable; a crashed site's running
  // tasks go back to their last checkpoint (site-actor.ts).
  faultTolerant: DAG_SCHEMES,
  durableMessages: DAG_DURABLE,
  locations: [SERVICES_LOCATION],
  sourceKinds: ['tornado', 'wfformat'],
  readMeta: readDagMeta,
  plan: planDag,
  messages: DAG_MESSAGES,
  sources: [TORNADO_SOURCE, WFFORMAT_SOURCE],
  jobFields: DAG_TASK_FIELDS,
  summary: dagSummary,
  busyProcessor_s: (counters, spec) =>
    Object.fromEntries(spec.sites.map((s) => [s.id, counters[siteBusyCounter(s.id)] ?? 0])),
  metrics: DAG_METRICS,
  timescales: (spec) => metaTimescales(spec, ['round_period_s', 'progress_period_s']),
};

export {
  generateTornado,
  TORNADO_DEFAULTS,
  VARIATION_SIGMA,
  type TornadoSpec,
  type VariationModel,
} from './tornado.js';
export { asDagTask, type DagTaskJob, type WfFormatParams } from './dag-sources.js';
