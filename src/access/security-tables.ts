/**
 * Tables that decide who may do what: only a role that administers its client changes them
 * (the System role administers client 0). Physical (lower-case) table names.
 */
export const SECURITY_TABLES: ReadonlySet<string> = new Set([
  'ad_role',
  'ad_user_roles',
  'ad_role_orgaccess',
  'ad_user_orgaccess',
  'ad_window_access',
  'ad_process_access',
  'ad_form_access',
  'ad_workflow_access',
  'ad_document_action_access',
  'ad_infowindow_access',
  'ad_table_access',
  'ad_column_access',
  'ad_record_access',
  'rest_signingkey',
  'ad_session',
  'rest_refreshtoken',
  'rest_webhook_out',
  'rest_webhook_out_event',
  'rest_webhook_in',
]);

/**
 * Columns of AD_User that authenticate or lock an account: changing them on another user's
 * record takes the client administrator's right; on one's own record, only the password.
 */
export const USER_SECRET_COLUMNS: ReadonlySet<string> = new Set(['password', 'salt', 'userpin', 'answer', 'emailuserpw']);
export const USER_LOCK_COLUMNS: ReadonlySet<string> = new Set(['islocked', 'dateaccountlocked', 'failedlogincount', 'datepasswordchanged', 'isexpired', 'isnoexpire', 'isnopasswordreset']);

/**
 * Tables whose rows tell about one user's sign-ins: readable only to that user and to client
 * administrators. The value names the column that holds the user.
 */
export const OWN_ROW_TABLES: ReadonlyMap<string, string> = new Map([
  ['ad_session', 'createdby'],
  ['rest_refreshtoken', 'ad_user_id'],
]);

/**
 * The service's own System tables that hold live secrets, other users' files or the cluster's
 * addresses, and that only the service writes: the mail outbox (password reset codes in clear
 * text), password reset requests, upload sessions and their bytes, signing keys and cluster nodes.
 * Reading them keeps the access level's gate (System only), where every other table is readable by
 * every role.
 */
export const SERVICE_INTERNAL_TABLES: ReadonlySet<string> = new Set([
  'rest_mail',
  'rest_passwordreset',
  'rest_upload',
  'rest_uploadchunk',
  'rest_signingkey',
  'ad_clusternode',
]);
