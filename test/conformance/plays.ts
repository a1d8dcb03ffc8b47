import type { Play } from './play.js';
import { administration } from './plays/administration.js';
import { auth } from './plays/auth.js';
import { attachments, batch, deletes, models } from './plays/models.js';
import { prints } from './plays/print.js';
import { processes } from './plays/processes.js';
import { infos, readServices, references } from './plays/read-services.js';
import { uploads } from './plays/uploads.js';
import { views } from './plays/views.js';
import { windows } from './plays/windows.js';
import { workflow } from './plays/workflow.js';

// The conformance run, in the order it is played: every operation of the upstream documents with
// their own examples as requests, GardenWorld values where they have none, and ids taken from
// earlier answers where an example names a record of the document author's database. Each area's
// plays are in plays/<area>.ts; deletes come last, since they remove records other plays read.
export const PLAYS: Play[] = [
  ...auth,
  ...models,
  ...attachments,
  ...prints,
  ...windows,
  ...processes,
  ...references,
  ...infos,
  ...workflow,
  ...readServices,
  ...views,
  ...uploads,
  ...batch,
  ...administration,
  ...deletes,
];
