import type { ExperimentSpec, MetaSchemes } from '@gridemu/model';
import { CORE_DURABLE_MESSAGES, messageValidator, type MessageCheck } from '@gridemu/protocol';
import { CORE_SOURCE_KINDS, type SchemeModule, type WorkloadSourceKind } from './scheme-module.js';
import { paper001 } from './paper-001/index.js';
import { gruber } from './gruber/index.js';
import { hierarchy } from './hierarchy/index.js';
import { shadow } from './shadow/index.js';
import { dag } from './dag/index.js';
import { external } from './external/index.js';

/** Every scheme family gridemu knows. A new family is a folder beside paper-001/ and a line here. */
export const SCHEME_MODULES: readonly SchemeModule[] = [paper001, gruber, hierarchy, shadow, dag, external];

const byScheme = new Map<string, SchemeModule>();
for (const m of SCHEME_MODULES) {
  for (const s of m.schemes) {
    const other = byScheme.get(s);
    if (other) throw new Error(`assertion: scheme "${s}" is claimed by both ${other.family} and ${m.family}`);
    byScheme.set(s, m);
  }
}

/** Every scheme name, in registry order. */
export const SCHEME_NAMES: readonly string[] = SCHEME_MODULES.flatMap((m) => m.schemes);

/** The module that owns `scheme`, if one does. */
export function findSchemeModule(scheme: string): SchemeModule | undefined {
  return byScheme.get(scheme);
}

/** The module that owns `scheme`. */
export function schemeModule(scheme: string): SchemeModule {
  const m = byScheme.get(scheme);
  if (!m) throw new Error(`unknown scheme "${scheme}" (known: ${SCHEME_NAMES.join(', ')})`);
  return m;
}

/** The kinds of workload source the families define, each claimed by one family. */
export const FAMILY_SOURCES: readonly WorkloadSourceKind[] = SCHEME_MODULES.flatMap((m) => m.sources ?? []);
for (const kind of [...CORE_SOURCE_KINDS, 'gwf', 'batsim']) {
  if (FAMILY_SOURCES.some((s) => s.kind === kind))
    throw new Error(`assertion: "${kind}" sources are gridemu's own; no family may define them`);
}
if (new Set(FAMILY_SOURCES.map((s) => s.kind)).size !== FAMILY_SOURCES.length)
  throw new Error(`assertion: two families define a kind of source of one name`);

/** What a family takes when it names nothing: trace files, models, and every family's independent jobs. */
const PLAIN_JOB_SOURCES: readonly string[] = [
  ...CORE_SOURCE_KINDS,
  ...FAMILY_SOURCES.filter((s) => s.independentJobs).map((s) => s.kind),
];

/** How the experiment file's `meta:` is read: each module reads its own schemes' options. */
export const META_SCHEMES: MetaSchemes = {
  names: SCHEME_NAMES,
  defaultScheme: SCHEME_NAMES[0]!,
  reservedLocations: SCHEME_MODULES.flatMap((m) => m.locations ?? []),
  faultTolerant: SCHEME_MODULES.flatMap((m) => m.faultTolerant ?? []),
  sourceKinds: (scheme) => findSchemeModule(scheme)?.sourceKinds ?? PLAIN_JOB_SOURCES,
  familySources: FAMILY_SOURCES,
  readMeta: (scheme, raw, r, context) => schemeModule(scheme).readMeta(scheme, raw, r, context),
};

/** Why a scheme's live processes skip the warm-up (SchemeModule.noWarmUp), or undefined. */
export function schemeSkipsWarmUp(scheme: string): string | undefined {
  return findSchemeModule(scheme)?.noWarmUp;
}

/** How long a live process of the spec's scheme may be silent and still be well (SchemeModule.longestSilence_s), or 0. */
export function schemeLongestSilence_s(spec: ExperimentSpec): number {
  return findSchemeModule(spec.meta.scheme)?.longestSilence_s?.(spec) ?? 0;
}

/** The mean of the spec's scheme's own outages that hold jobs back (SchemeModule.meanOutage_s); 0: none. */
export function schemeMeanOutage_s(spec: ExperimentSpec): number {
  return findSchemeModule(spec.meta.scheme)?.meanOutage_s?.(spec) ?? 0;
}

/** The bus's message catalogue: the core's and every module's. */
export const MESSAGE_CHECK: MessageCheck = messageValidator({
  messages: SCHEME_MODULES.flatMap((m) => (m.messages ? [m.messages] : [])),
  jobFields: SCHEME_MODULES.flatMap((m) => (m.jobFields ? [m.jobFields] : [])),
});

/** Message types that must not be lost: the core's and every module's. */
export const DURABLE_MESSAGES: ReadonlySet<string> = new Set([
  ...CORE_DURABLE_MESSAGES,
  ...SCHEME_MODULES.flatMap((m) => m.durableMessages ?? []),
]);

/** Topics on which only the newest message of each sender matters, from every module. */
export const LATEST_VALUE_TOPICS: ReadonlySet<string> = new Set(
  SCHEME_MODULES.flatMap((m) => m.latestValueTopics ?? []),
);
