import { ex, type Play } from '../play.js';

export const references: Play[] = [
  { op: 'GET /reference/{id}', path: { id: ex('menuActionUUID') }, expect: 200 },
  { op: 'GET /reference/{id}', path: { id: ex('menuActionId') }, expect: 200 },
  { op: 'GET /reference/{id}', path: { id: ex('menuActionName') }, expect: 200 },
  { op: 'GET /reference/{id}', title: 'a table reference', path: { id: 138 }, expect: 200 },
  { op: 'GET /reference/{id}', title: 'an unknown reference', path: { id: 987654 }, expect: 404 },
];

export const infos: Play[] = [
  { op: 'GET /infos', expect: 200 },
  { op: 'GET /infos', query: { $filter: "Name eq 'Business Partner Info'" }, expect: 200 },
  { op: 'GET /infos/{infoSlug}', path: { infoSlug: 'business-partner-info' }, query: { $parameters: JSON.stringify({ Name: 'C%' }), $orderby: 'Name', $page_no: 1 }, expect: 200 },
  { op: 'GET /infos/{infoSlug}/columns', path: { infoSlug: 'business-partner-info' }, expect: 200 },
  { op: 'GET /infos/{infoSlug}/processes', path: { infoSlug: ex('support-users-vs-roles') }, expect: 200 },
  { op: 'GET /infos/{infoSlug}/relateds', path: { infoSlug: ex('businessPartnerInfo') }, expect: 200 },
];

export const readServices: Play[] = [
  { op: 'GET /statuslines', expect: 200 },
  { op: 'GET /statuslines', query: { with_messages: 'true', $filter: "Name neq 'x'" }, expect: 200 },
  { op: 'GET /statuslines/{id}', path: { id: ex('statusLine_200024') }, expect: 200 },
  { op: 'GET /charts/data', expect: 200 },
  { op: 'GET /charts/data', query: { $filter: 'AD_Chart_ID eq 50000' }, expect: 200 },
  { op: 'GET /charts/{id}', path: { id: 50000 }, query: { width: 300, height: 200 }, expect: 200 },
  { op: 'GET /charts/{id}', path: { id: 50001 }, query: { json: 'true' }, expect: 200 },
  { op: 'GET /charts/{id}/data', path: { id: 50000 }, expect: 200 },
  { op: 'GET /charts/{id}/data', path: { id: 50001 }, expect: 200 },
  { op: 'GET /charts/{id}/data', path: { id: 50002 }, expect: 200 },
  { op: 'GET /menutree/{id}', path: { id: 10 }, expect: 200 },
];
