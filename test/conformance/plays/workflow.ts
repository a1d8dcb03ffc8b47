import { ex, type Play } from '../play.js';

export const workflow: Play[] = [
  { op: 'GET /workflow', expect: 200 },
  { op: 'GET /workflow/{userId}', path: { userId: 101 }, expect: 200 },
  { op: 'PUT /workflow/forward/{id}', path: { id: 1000000 }, body: { userTo: 102, message: 'Please look at this one' }, expect: 200 },
  { op: 'PUT /workflow/approve/{id}', path: { id: 100 }, body: { message: 'Approved' }, expect: 200 },
  { op: 'PUT /workflow/reject/{id}', as: 'user', path: { id: 1000000 }, body: { message: 'Not this time' }, expect: 200 },
  { op: 'PUT /workflow/acknowledge/{id}', path: { id: 1001203 }, body: { message: 'Seen' }, expect: 200 },
  { op: 'PUT /workflow/setuserchoice/{id}', path: { id: 1001223 }, body: { message: 'Chosen', value: 'A description chosen by the user' }, expect: 200 },
];
