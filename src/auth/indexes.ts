/**
 * Indexes the authentication queries rely on (revocation by family, session and user; session
 * state polling; reset lookups). Applied once per database by a versioned migration.
 */
export const AUTH_INDEXES: readonly string[] = [
  'CREATE INDEX IF NOT EXISTS rest_refreshtoken_family_idx ON rest_refreshtoken (familyid)',
  'CREATE INDEX IF NOT EXISTS rest_refreshtoken_session_idx ON rest_refreshtoken (ad_session_id)',
  'CREATE INDEX IF NOT EXISTS rest_refreshtoken_user_idx ON rest_refreshtoken (ad_user_id)',
  'CREATE INDEX IF NOT EXISTS ad_session_createdby_idx ON ad_session (createdby)',
  "CREATE INDEX IF NOT EXISTS ad_session_ended_idx ON ad_session (updated) WHERE processed = 'Y'",
  'CREATE INDEX IF NOT EXISTS rest_passwordreset_email_idx ON rest_passwordreset (lower(email), created)',
  'CREATE INDEX IF NOT EXISTS rest_passwordreset_verified_idx ON rest_passwordreset (verifiedtokenhash)',
];
