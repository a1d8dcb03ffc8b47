/**
 * Examples of the upstream documents the conformance run does not play, each with its reason.
 * `where` is a parameter name or `(body)`; `scope` an operation (`GET /models`) or, for path
 * parameters, a path; `name` an example's name or `*` for all of them.
 */
export const EXAMPLE_EXEMPTIONS: readonly { where: string; name: string; scope?: string; reason: string }[] = [
  {
    where: 'locale',
    name: '*',
    reason: 'the same component parameter on almost every operation; played with each of its examples on the record list',
  },
];
