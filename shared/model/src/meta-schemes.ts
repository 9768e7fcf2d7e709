import type { FieldReader } from './field-reader.js';
import type { LocalSpec, MetaSpec, SiteSpec, SourceCommon, WorkloadKind, WorkloadSource } from './spec.js';

/** What a module reading `meta:` may look at besides it. */
export interface MetaContext {
  readonly sites: readonly SiteSpec[];
  readonly local: LocalSpec;
  /** The sources, so a scheme can check what they name (a VO or group its policy must know). */
  readonly workload: readonly WorkloadSource[];
}

/**
 * How the experiment file's `meta:` is read: the scheme registry (shared/schemes) implements this,
 * so the model knows no particular scheme. Each module reads, defaults and validates its own
 * options; one that belongs to another module is an error naming the field.
 */
export interface MetaSchemes {
  /** Every scheme name. */
  readonly names: readonly string[];
  /** The scheme of a file that names none. */
  readonly defaultScheme: string;
  /** Location ids the schemes use for processes of their own (`central`), which no site may take. */
  readonly reservedLocations: readonly string[];
  /** The schemes whose actors recover from `faults:` (crashes, partitions, lost messages); others refuse them. */
  readonly faultTolerant: readonly string[];
  /** The kinds of workload source a scheme takes (DAG jobs only under the DAG schemes, and nothing else there). */
  sourceKinds(scheme: string): readonly WorkloadKind[];
  /** The kinds of source the families define, beside the trace files and models every family may take. */
  readonly familySources: readonly SourceKindReader[];
  /**
   * Reads `meta` (every field but `scheme` is the module's) through `r`, recording an issue per bad
   * field; returns the meta, the local policy to use (a scheme may require a particular one), and
   * the scheme's processes beside the sites that `faults.crash` may name (without them: every
   * reserved location).
   */
  readMeta(
    scheme: string,
    raw: Readonly<Record<string, unknown>>,
    r: FieldReader,
    context: MetaContext,
  ): { meta: MetaSpec; local: LocalSpec; processes?: readonly string[] };
}

/**
 * A kind of workload source a family defines, as the experiment file's reader sees it: the key
 * that names it, and how its options are read. The family also turns it into jobs (SourceLoader,
 * shared/workload).
 */
export interface SourceKindReader {
  /** The key that names it in a source (`blast`, `tornado`). */
  readonly kind: string;
  /** A few words for the error that lists every kind (`a bag of BLAST tasks`). */
  readonly describe: string;
  /** Keys of its own beside its kind's (a wfformat source's `instances`). */
  readonly keys?: readonly string[];
  /**
   * Reads its options from the whole source (it refuses the common keys that do not apply to it),
   * recording an issue per bad field in `r`: the fields the source gets beside the common ones (its
   * kind's key, with what it holds, and its own keys), or undefined when they cannot be read at all.
   */
  read(
    o: Readonly<Record<string, unknown>>,
    r: FieldReader,
    path: string,
    common: SourceCommon,
  ): Readonly<Record<string, unknown>> | undefined;
}
