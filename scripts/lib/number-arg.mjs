/** A report script's numeric option: `--name N` on the command line, or `fallback`. */
export function numberArg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
