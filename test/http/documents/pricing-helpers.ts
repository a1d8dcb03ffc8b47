import type { documentCalls } from './document-helpers.js';

type Ok = ReturnType<typeof documentCalls>['ok'];

/** A new customer of the standard group with a bill-to and ship-to location, and the columns given. */
export async function newCustomer(ok: Ok, body: Record<string, unknown> = {}): Promise<{ id: number } & Record<string, unknown>> {
  return ok('POST', '/api/v1/models/c_bpartner', {
    Value: `cust-${Math.random().toString(36).slice(2, 9)}`,
    Name: 'Pricing customer',
    C_BP_Group_ID: 103,
    IsCustomer: true,
    ...body,
    C_BPartner_Location: [{ C_Location_ID: 120, Name: 'Stamford', IsBillTo: true, IsShipTo: true, IsPayFrom: true, IsRemitTo: true }],
  });
}
