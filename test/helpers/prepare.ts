import { prepareSeed } from './database.js';

prepareSeed().catch((e: unknown) => {
  console.error('could not prepare the seeded database:', e);
  process.exit(1);
});
