import { ex, type Play } from '../play.js';

export const processes: Play[] = [
  { op: 'GET /processes', expect: 200 },
  { op: 'GET /processes', query: { $filter: ex('containBPName') }, expect: 200 },
  { op: 'GET /processes/{processSlug}', path: { processSlug: ex('bpartnerOpen') }, expect: 200 },
  { op: 'GET /processes/{processSlug}', path: { processSlug: ex('orderDetail') }, expect: 200 },
  { op: 'GET /processes/{processSlug}', title: 'an unknown process', path: { processSlug: 'no-such-process' }, expect: 404 },
  { op: 'POST /processes/{processSlug}', path: { processSlug: ex('orderDetail') }, body: ex('orderDetail'), expect: 200 },
  { op: 'POST /processes/{processSlug}', path: { processSlug: ex('bpartnerOpen') }, body: { 'report-type': 'PDF' }, expect: 200 },
  { op: 'POST /processes/{processSlug}', title: 'a document process', path: { processSlug: 'c_order-process' }, body: (c: any) => ({ 'record-id': c.orderId, 'table-id': 259 }), expect: 200 },
];
