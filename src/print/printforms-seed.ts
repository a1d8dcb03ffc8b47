import type { Tx } from '../db/types.js';
import { readSeed, seedTable } from '../seed/bootstrap.js';
import { deterministicUuid } from '../seed/deterministic-uuid.js';
import { insertSeedRows } from '../seed/insert-rows.js';
import { gardenWorldLogo } from './demo-logo.js';
import { PAYMENT_PRINT_PROCESS_ID } from './print-processes.js';

/** GardenWorld's logo image (AD_ClientInfo.Logo_ID and LogoReport_ID name it). */
const DEMO_LOGO_IMAGE_ID = 100;

/** Roles that print payments through the process: System Administrator and GardenWorld Admin, as the other print processes. */
const ACCESS: readonly [role: number, client: number][] = [
  [0, 0],
  [102, 11],
];

/** Names of the document statuses (AD_Reference 131) in the demo's other languages: [AD_Ref_List_ID, de_DE, es_ES, fr_FR]. */
const DOCUMENT_STATUS_NAMES: readonly [number, string, string, string][] = [
  [182, 'Unbekannt', 'Desconocido', 'Inconnu'],
  [183, 'Genehmigt', 'Aprobado', 'Approuvé'],
  [184, 'Geschlossen', 'Cerrado', 'Fermé'],
  [185, 'Abgeschlossen', 'Completo', 'Achevé'],
  [186, 'Entwurf', 'Borrador', 'Brouillon'],
  [187, 'Ungültig', 'Inválido', 'Invalide'],
  [188, 'In Verarbeitung', 'En Proceso', 'En cours'],
  [189, 'Nicht genehmigt', 'No Aprobado', 'Non approuvé'],
  [190, 'Storniert (Gegenbuchung)', 'Reversado', 'Contrepassé'],
  [191, 'Storniert', 'Anulado', 'Annulé'],
  [192, 'Wartet auf Bestätigung', 'Esperando Confirmación', 'En attente de confirmation'],
  [193, 'Wartet auf Zahlung', 'Esperando Pago', 'En attente de paiement'],
];
const LANGUAGES = ['de_DE', 'es_ES', 'fr_FR'] as const;

/**
 * Documents fit to send: the demo's logo where its image has no data, the payment's print process
 * (Rpt C_Payment) with its access, and the document status names in the demo's other languages,
 * where none is there yet.
 */
export async function addPrintFormSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await tx.query(`UPDATE ad_image SET binarydata = $2 WHERE ad_image_id = $1 AND binarydata IS NULL`, [DEMO_LOGO_IMAGE_ID, gardenWorldLogo()]);
  const { dict } = readSeed();
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Process'),
    [{
      AD_Client_ID: 0, AD_Org_ID: 0, AD_Process_ID: PAYMENT_PRINT_PROCESS_ID, Value: 'Rpt C_Payment', Name: 'Payment Print', Description: 'The printed form of a payment or receipt',
      IsReport: 'Y', AccessLevel: '1', AllowMultipleExecution: 'P', EntityType: 'D', IsBetaFunctionality: 'N', IsDirectPrint: 'N', ShowHelp: 'Y',
    }],
    now,
    { skipExisting: true },
  );
  const { rows } = await tx.query<{ r: number }>(`SELECT ad_role_id AS r FROM ad_process_access WHERE ad_process_id = $1`, [PAYMENT_PRINT_PROCESS_ID]);
  const have = new Set(rows.map((r) => Number(r.r)));
  const { rows: roles } = await tx.query<{ r: number }>(`SELECT ad_role_id AS r FROM ad_role WHERE ad_role_id = ANY($1::bigint[])`, [ACCESS.map(([role]) => role)]);
  const existing = new Set(roles.map((r) => Number(r.r)));
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Process_Access'),
    ACCESS.filter(([role]) => existing.has(role) && !have.has(role)).map(([role, client]) => ({
      AD_Process_ID: PAYMENT_PRINT_PROCESS_ID, AD_Role_ID: role, AD_Client_ID: client, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: deterministicUuid(`AD_Process_Access:${PAYMENT_PRINT_PROCESS_ID}:${role}`),
    })),
    now,
  );
  const { rows: languages } = await tx.query<{ l: string }>(`SELECT ad_language AS l FROM ad_language WHERE ad_language = ANY($1::text[])`, [[...LANGUAGES]]);
  const known = new Set(languages.map((r) => r.l));
  const { rows: lists } = await tx.query<{ id: number }>(`SELECT ad_ref_list_id AS id FROM ad_ref_list WHERE ad_ref_list_id = ANY($1::bigint[])`, [DOCUMENT_STATUS_NAMES.map(([id]) => id)]);
  const listed = new Set(lists.map((r) => Number(r.id)));
  const { rows: translated } = await tx.query<{ id: number; l: string }>(`SELECT ad_ref_list_id AS id, ad_language AS l FROM ad_ref_list_trl WHERE ad_ref_list_id = ANY($1::bigint[])`, [DOCUMENT_STATUS_NAMES.map(([id]) => id)]);
  const done = new Set(translated.map((r) => `${Number(r.id)}:${r.l}`));
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Ref_List_Trl'),
    DOCUMENT_STATUS_NAMES.flatMap(([id, ...names]) =>
      LANGUAGES.map((language, i) => ({ id, language, name: names[i]! })).filter((t) => listed.has(t.id) && known.has(t.language) && !done.has(`${t.id}:${t.language}`)),
    ).map((t) => ({
      AD_Ref_List_ID: t.id, AD_Language: t.language, AD_Client_ID: 0, AD_Org_ID: 0, Name: t.name, IsTranslated: 'Y', AD_Ref_List_Trl_UU: deterministicUuid(`AD_Ref_List_Trl:${t.id}:${t.language}`),
    })),
    now,
  );
}
