import { closestName, didYouMean, namesStartingWith } from '@gridemu/model';

/**
 * The Parallel Workloads Archive's logs, each by the file its page offers for use (the cleaned
 * version where there is one), as a public script that downloads every log named them, checked
 * against the archive's pages where those could be read. `gridemu trace fetch` downloads
 * any log by its name; this list serves to suggest a full name for a shortened or mistyped one,
 * offline. A log the archive adds later is fetched all the same.
 */
export const ARCHIVE_LOGS: readonly string[] = [
  'NASA-iPSC-1993-3.1-cln.swf.gz',
  'LANL-CM5-1994-4.1-cln.swf.gz',
  'SDSC-Par-1995-3.1-cln.swf.gz',
  'SDSC-Par-1996-3.1-cln.swf.gz',
  'CTC-SP2-1995-2.swf.gz',
  'CTC-SP2-1996-3.1-cln.swf.gz',
  'LLNL-T3D-1996-2.swf.gz',
  'KTH-SP2-1996-2.1-cln.swf.gz',
  'SDSC-SP2-1998-4.2-cln.swf.gz',
  'LANL-O2K-1999-2.swf.gz',
  'OSC-Clust-2000-3.1-cln.swf.gz',
  'SDSC-BLUE-2000-4.2-cln.swf.gz',
  'Sandia-Ross-2001-1.1-cln.swf.gz',
  'HPC2N-2002-2.2-cln.swf.gz',
  'DAS2-fs0-2003-1.swf.gz',
  'DAS2-fs1-2003-1.swf.gz',
  'DAS2-fs2-2003-1.swf.gz',
  'DAS2-fs3-2003-1.swf.gz',
  'DAS2-fs4-2003-1.swf.gz',
  'SDSC-DS-2004-2.1-cln.swf.gz',
  'LPC-EGEE-2004-1.2-cln.swf.gz',
  'LCG-2005-1.swf.gz',
  'SHARCNET-2005-2.swf.gz',
  'SHARCNET-Whale-2006-2.swf.gz',
  'LLNL-uBGL-2006-2.swf.gz',
  'LLNL-Atlas-2006-2.1-cln.swf.gz',
  'LLNL-Thunder-2007-1.1-cln.swf.gz',
  'CIEMAT-Euler-2008-1.swf.gz',
  'ANL-Intrepid-2009-1.swf.gz',
  'METACENTRUM-2009-2.swf.gz',
  'PIK-IPLEX-2009-1.swf.gz',
  'RICC-2010-2.swf.gz',
  'CEA-Curie-2011-2.1-cln.swf.gz',
  'Intel-NetbatchA-2012-1.swf.gz',
  'Intel-NetbatchB-2012-1.swf.gz',
  'Intel-NetbatchC-2012-1.swf.gz',
  'Intel-NetbatchD-2012-1.swf.gz',
  'METACENTRUM-2013-3.swf.gz',
  'UniLu-Gaia-2014-2.swf.gz',
  'KIT-FH2-2016-1.swf.gz',
];

/**
 * The logs whose folder is not `l_` and their machine's name in lower case (the rule every other
 * log follows: KTH-SP2 in l_kth_sp2), keyed by the name's part before the version: machine and
 * year. OSC-Clust-2000-3.1-cln.swf.gz is served from l_osc, not l_osc_clust, and the 2013
 * MetaCentrum log from l_metacentrum2, beside the 2009 one in l_metacentrum. The archive's own
 * pages were read for l_osc, l_anl_int, l_das2, l_lpc and l_metacentrum2; the other two folders
 * are as a public script that downloads every log names them.
 */
const FOLDER_OF: Readonly<Record<string, string>> = {
  'OSC-Clust-2000': 'l_osc',
  'DAS2-fs0-2003': 'l_das2',
  'DAS2-fs1-2003': 'l_das2',
  'DAS2-fs2-2003': 'l_das2',
  'DAS2-fs3-2003': 'l_das2',
  'DAS2-fs4-2003': 'l_das2',
  'LPC-EGEE-2004': 'l_lpc',
  'SHARCNET-Whale-2006': 'l_sharcnet',
  'ANL-Intrepid-2009': 'l_anl_int',
  'Intel-NetbatchA-2012': 'l_intel_netbatch',
  'Intel-NetbatchB-2012': 'l_intel_netbatch',
  'Intel-NetbatchC-2012': 'l_intel_netbatch',
  'Intel-NetbatchD-2012': 'l_intel_netbatch',
  'METACENTRUM-2013': 'l_metacentrum2',
};

/** The archive's folder for a log whose machine is `machine` and year `year`. */
export function archiveLogFolder(machine: string, year: string): string {
  return FOLDER_OF[`${machine}-${year}`] ?? `l_${machine.toLowerCase().replace(/-/g, '_')}`;
}

/**
 * The archive's logs that `typed` likely meant, at most five: those whose name begins as it does,
 * whatever the case (`SDSC-BLUE` finds SDSC-BLUE-2000-4.2-cln.swf.gz, `DAS2` the five DAS2
 * logs, `KTH-SP2-1996-2.1-cln.swf` the `.gz`), else the one a letter or two away
 * (`KHT-SP2-1996-2.1-cln.swf.gz` finds KTH's). None for a name under three characters, which
 * would match too much, or for one of the list's own.
 */
export function archiveLogsLike(typed: string): string[] {
  if (typed.length < 3 || ARCHIVE_LOGS.includes(typed)) return [];
  const starting = namesStartingWith(typed, ARCHIVE_LOGS);
  if (starting.length > 0) return starting;
  const close = closestName(typed, ARCHIVE_LOGS);
  return close === undefined ? [] : [close];
}

/** The end of an error that names the logs `typed` likely meant, or nothing. */
export function archiveLogsHint(typed: string): string {
  const like = archiveLogsLike(typed);
  if (like.length === 0) return '';
  if (like.length === 1) return didYouMean(like[0]);
  return `; the archive's logs named like it: ${like.join(', ')}`;
}
