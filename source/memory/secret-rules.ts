// Token formats as their providers document them: a prefix that names the token, then a body of a
// documented length and alphabet. A match is a credential whatever surrounds it, so every rule here
// blocks; a body that is a placeholder (`EXAMPLE`, `xxxx…`, one character repeated) is documentation
// and is dropped by the lint before it becomes a finding.

export type SecretSeverity = 'block' | 'warn';

export interface Rule {
  name: string;
  severity: SecretSeverity;
  /** Lower-case substrings; the regex runs only when the text contains one. Empty: always runs. */
  keywords: string[];
  /** Global regex; the secret is group `secretGroup` (0 = the whole match; of a list, the first that matched). */
  pattern: RegExp;
  secretGroup?: number | number[];
  /** A second look at a match: return null to drop it, or the severity it deserves. */
  check?: (secret: string, match: RegExpExecArray) => SecretSeverity | null;
  /** A documented token format (the placeholder check applies), as opposed to a value found by its context. */
  format?: boolean;
  /** Where the token's random body starts, when its documented prefix itself repeats a character (`AAAA…`). */
  bodyAt?: number;
}

// Token boundaries: a token that is part of a longer word or run is not that token.
export const B = String.raw`(?<![A-Za-z0-9_])`;
export const E = String.raw`(?![A-Za-z0-9_])`;
/** End of a token whose alphabet includes `-`. */
export const E_DASH = String.raw`(?![A-Za-z0-9_-])`;

const re = (source: string, flags = 'g') => new RegExp(source, flags);

/** Rules for documented token formats, most specific first (an earlier rule wins an overlap). */
export const FORMAT_RULES: Rule[] = [
  {
    name: 'aws-access-key-id',
    severity: 'block',
    keywords: ['akia', 'asia', 'abia', 'acca'],
    // AKIA: long-term user keys; ASIA: temporary (STS) keys; ABIA/ACCA: other documented IAM prefixes.
    pattern: re(String.raw`${B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}${E}`),
  },
  {
    name: 'aws-secret-access-key',
    severity: 'block',
    keywords: ['aws_secret', 'secret_access_key', 'secretaccesskey', 'aws secret', 'secret-access-key'],
    pattern:
      /(?:aws_?secret_?access_?key|secret_?access_?key|secret-access-key|aws secret access key)["'\s]*[:=]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    secretGroup: 1,
  },
  {
    name: 'gcp-service-account-key',
    severity: 'block',
    keywords: ['private_key_id'],
    pattern: /"private_key_id"\s*:\s*"([0-9a-f]{40})"/g,
    secretGroup: 1,
  },
  {
    name: 'gcp-api-key',
    severity: 'block',
    keywords: ['aiza'],
    pattern: re(String.raw`${B}AIza[0-9A-Za-z_-]{35}${E_DASH}`),
  },
  {
    name: 'google-oauth-client-secret',
    severity: 'block',
    keywords: ['gocspx-'],
    pattern: re(String.raw`${B}GOCSPX-[A-Za-z0-9_-]{28}${E_DASH}`),
  },
  {
    name: 'google-oauth-access-token',
    severity: 'block',
    keywords: ['ya29.'],
    // Google's OAuth 2.0 access tokens begin with "ya29.".
    pattern: re(String.raw`${B}ya29\.[0-9A-Za-z_-]{30,}`),
  },
  {
    name: 'github-fine-grained-token',
    severity: 'block',
    keywords: ['github_pat_'],
    pattern: re(String.raw`${B}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${E}|${B}github_pat_[A-Za-z0-9_]{50,255}${E}`),
  },
  {
    name: 'github-token',
    severity: 'block',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    // Classic personal (ghp_), OAuth (gho_), user-to-server (ghu_), server-to-server (ghs_), refresh (ghr_): 36 base62.
    pattern: re(String.raw`${B}gh[pousr]_[A-Za-z0-9]{36,251}${E}`),
  },
  {
    name: 'gitlab-token',
    severity: 'block',
    keywords: [
      'glpat-',
      'gldt-',
      'glrt-',
      'glptt-',
      'gloas-',
      'glcbt-',
      'glft-',
      'glimt-',
      'glagent-',
      'glsoat-',
      'glffct-',
      'gr1348941',
    ],
    // GitLab's documented prefixes: personal/project/group access (glpat-), deploy (gldt-), runner
    // authentication (glrt-), pipeline trigger (glptt-), OAuth application secret (gloas-), CI job
    // (glcbt-), feed (glft-), incoming mail (glimt-), agent (glagent-), SCIM (glsoat-), feature-flag
    // client (glffct-) tokens, and legacy runner registration tokens (GR1348941).
    pattern: re(
      String.raw`${B}(?:glpat|gldt|glrt|glptt|gloas|glcbt|glft|glimt|glagent|glsoat|glffct)-[A-Za-z0-9_.-]{20,}|${B}GR1348941[A-Za-z0-9_-]{20,}`,
    ),
    check: (secret) => (/\d/.test(secret.slice(secret.indexOf('-') + 1)) || /[A-Z]/.test(secret) ? 'block' : null),
  },
  {
    name: 'anthropic-api-key',
    severity: 'block',
    keywords: ['sk-ant-'],
    pattern: re(String.raw`${B}sk-ant-(?:api|admin|sid|oat|ort)\d{2}-[A-Za-z0-9_-]{32,}`),
  },
  {
    name: 'openai-api-key',
    severity: 'block',
    keywords: ['sk-'],
    // Project, service-account and admin keys (sk-proj-, sk-svcacct-, sk-admin-), and legacy user keys
    // whose body carries the marker T3BlbkFJ ("OpenAI" in base64), or a long plain sk- key.
    pattern: re(
      String.raw`${B}sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,}|${B}sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}${E}|${B}sk-(?!ant-)[A-Za-z0-9]{40,64}${E}`,
    ),
    check: (secret) => (!/\d/.test(secret) ? null : 'block'),
  },
  {
    name: 'slack-token',
    severity: 'block',
    keywords: ['xox'],
    // Bot (xoxb), user (xoxp), legacy workspace (xoxa/xoxo/xoxr/xoxs), and rotating refresh (xoxe) tokens.
    pattern: re(String.raw`${B}xox[abposre]-[0-9A-Za-z-]{10,250}`),
    check: (secret) => (/\d/.test(secret.slice(5)) ? 'block' : null),
  },
  {
    name: 'slack-app-token',
    severity: 'block',
    keywords: ['xapp-'],
    pattern: re(String.raw`${B}xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}`),
  },
  {
    name: 'slack-webhook',
    severity: 'block',
    keywords: ['hooks.slack.com'],
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g,
  },
  {
    name: 'stripe-live-key',
    severity: 'block',
    keywords: ['sk_live_', 'rk_live_'],
    pattern: re(String.raw`${B}(?:sk|rk)_live_[0-9A-Za-z]{20,247}${E}`),
  },
  {
    name: 'stripe-webhook-secret',
    severity: 'block',
    keywords: ['whsec_'],
    pattern: re(String.raw`${B}whsec_[0-9A-Za-z+/]{24,}={0,2}`),
  },
  {
    name: 'stripe-test-key',
    severity: 'warn',
    keywords: ['sk_test_', 'rk_test_'],
    pattern: re(String.raw`${B}(?:sk|rk)_test_[0-9A-Za-z]{20,247}${E}`),
  },
  {
    name: 'npm-token',
    severity: 'block',
    keywords: ['npm_'],
    pattern: re(String.raw`${B}npm_[A-Za-z0-9]{36}${E}`),
    check: (secret) => (/\d/.test(secret) && /[A-Z]/.test(secret) ? 'block' : null),
  },
  {
    name: 'sendgrid-api-key',
    severity: 'block',
    keywords: ['sg.'],
    pattern: re(String.raw`${B}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}${E_DASH}`),
  },
  {
    name: 'huggingface-token',
    severity: 'block',
    keywords: ['hf_'],
    pattern: re(String.raw`${B}hf_[A-Za-z0-9]{34,40}${E}`),
    check: (secret) => (/[A-Z]/.test(secret) && /[a-z]/.test(secret.slice(3)) ? 'block' : null),
  },
  {
    name: 'pypi-token',
    severity: 'block',
    keywords: ['pypi-'],
    // "pypi-" then a macaroon whose base64 begins with its location: "pypi.org" or "test.pypi.org".
    pattern: re(String.raw`${B}pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}`),
  },
  {
    name: 'digitalocean-token',
    severity: 'block',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    pattern: re(String.raw`${B}do[opr]_v1_[a-f0-9]{64}${E}`),
  },
  {
    name: 'shopify-token',
    severity: 'block',
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: re(String.raw`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`),
  },
  {
    name: 'docker-hub-token',
    severity: 'block',
    keywords: ['dckr_pat_', 'dckr_oat_'],
    pattern: re(String.raw`${B}dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}`),
  },
  {
    name: 'azure-storage-key',
    severity: 'block',
    keywords: ['accountkey='],
    // A storage connection string's AccountKey: 64 random bytes in base64 (88 characters, "==" padded).
    pattern: /AccountKey=([A-Za-z0-9+/]{86}==)/gi,
    secretGroup: 1,
  },
  {
    name: 'azure-shared-access-key',
    severity: 'block',
    keywords: ['sharedaccesskey=', 'sharedaccesssignature'],
    // Service Bus / Event Hubs connection strings: SharedAccessKey is 32 random bytes in base64.
    pattern: /SharedAccessKey=([A-Za-z0-9+/]{43}=)/gi,
    secretGroup: 1,
  },
  {
    name: 'azure-client-secret',
    severity: 'block',
    keywords: ['q~'],
    // Microsoft Entra application client secrets: three characters, a digit, "Q~", then 31–34 more.
    pattern: re(String.raw`${B}[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`),
  },
  {
    name: 'atlassian-api-token',
    severity: 'block',
    keywords: ['atatt', 'atctt', 'atbb'],
    // Atlassian API tokens begin "ATAT" (ATATT…), access tokens "ATCT", Bitbucket app passwords "ATBB".
    pattern: re(String.raw`${B}(?:ATATT|ATCTT|ATBB)[A-Za-z0-9_=-]{24,}`),
  },
  {
    name: 'doppler-token',
    severity: 'block',
    keywords: ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    // Personal (dp.pt.), service (dp.st.[config.]), CLI (dp.ct.), service account (dp.sa.), SCIM, audit tokens.
    pattern: re(String.raw`${B}dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}${E}`),
  },
  {
    name: 'vault-token',
    severity: 'block',
    keywords: ['hvs.', 'hvb.', 'hvr.'],
    // HashiCorp Vault service (hvs.), batch (hvb.) and recovery (hvr.) tokens.
    pattern: re(String.raw`${B}hv[sbr]\.[A-Za-z0-9_-]{24,}`),
  },
  {
    name: 'terraform-cloud-token',
    severity: 'block',
    keywords: ['.atlasv1.'],
    pattern: re(String.raw`${B}[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}`),
  },
  {
    name: 'linear-api-key',
    severity: 'block',
    keywords: ['lin_api_', 'lin_oauth_'],
    pattern: re(String.raw`${B}lin_(?:api|oauth)_[A-Za-z0-9]{32,}${E}`),
  },
  {
    name: 'sentry-token',
    severity: 'block',
    keywords: ['sntrys_', 'sntryu_'],
    // Organization auth tokens (sntrys_ + base64 with a JSON header) and user auth tokens (sntryu_ + 64 hex).
    pattern: re(String.raw`${B}sntrys_eyJ[A-Za-z0-9+/=_-]{40,}|${B}sntryu_[a-f0-9]{64}${E}`),
  },
  {
    name: 'databricks-token',
    severity: 'block',
    keywords: ['dapi'],
    pattern: re(String.raw`${B}dapi[a-f0-9]{32}(?:-\d)?${E}`),
  },
  {
    name: 'postman-api-key',
    severity: 'block',
    keywords: ['pmak-'],
    pattern: re(String.raw`${B}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${E}`),
  },
  {
    name: 'grafana-token',
    severity: 'block',
    keywords: ['glsa_', 'glc_'],
    // Service account tokens (glsa_ + 32 + _ + 8-hex checksum) and Grafana Cloud access policy tokens (glc_ + base64).
    pattern: re(String.raw`${B}glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}${E}|${B}glc_[A-Za-z0-9+/]{32,}={0,2}`),
  },
  {
    name: 'new-relic-key',
    severity: 'block',
    keywords: ['nrak-', 'nrii-', 'nral', 'nraa-'],
    // User API keys (NRAK-), admin keys (NRAA-), insights insert keys (NRII-), license keys (40 chars ending NRAL).
    pattern: re(String.raw`${B}NRA[AK]-[A-Z0-9]{27}${E}|${B}NRII-[A-Za-z0-9_-]{32}${E_DASH}|${B}[a-f0-9]{36}NRAL${E}`),
  },
  {
    name: 'discord-bot-token',
    severity: 'block',
    keywords: [],
    // The bot's id in base64, a timestamp and an HMAC, separated by dots (Discord's documented example has this shape).
    pattern: re(String.raw`${B}[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}${E_DASH}`),
    check: (secret) =>
      /\d/.test(secret) && /[a-z]/.test(secret) && /[A-Z].*[A-Z]/.test(secret.slice(1)) ? 'block' : null,
  },
  {
    name: 'discord-webhook',
    severity: 'block',
    keywords: ['/api/webhooks/'],
    pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{60,80}/g,
  },
  {
    name: 'telegram-bot-token',
    severity: 'block',
    keywords: [':aa'],
    // The bot id, a colon, then 35 characters beginning "AA".
    pattern: re(String.raw`(?<![A-Za-z0-9_:])\d{8,10}:AA[A-Za-z0-9_-]{33}${E_DASH}`),
  },
  {
    name: 'twilio-api-key',
    severity: 'block',
    keywords: ['sk'],
    // API key SIDs: "SK" and 32 hex characters.
    pattern: re(String.raw`${B}SK[0-9a-fA-F]{32}${E}`),
    check: (secret) => (/\d/.test(secret.slice(2)) && /[a-f]/i.test(secret.slice(2)) ? 'block' : null),
  },
  {
    name: 'mailgun-api-key',
    severity: 'block',
    keywords: ['key-'],
    // Mailgun private API keys: "key-" and 32 lower-case letters and digits.
    pattern: re(String.raw`${B}key-[0-9a-z]{32}${E}`),
    check: (secret) => (/\d/.test(secret.slice(4)) && /[a-z]/.test(secret.slice(4)) ? 'block' : null),
  },
  {
    name: 'mailchimp-api-key',
    severity: 'block',
    keywords: ['-us'],
    // 32 hex characters, then the data centre ("-us6").
    pattern: re(String.raw`${B}[0-9a-f]{32}-us\d{1,2}${E}`),
  },
  {
    name: 'square-token',
    severity: 'block',
    keywords: ['sq0atp-', 'sq0csp-'],
    pattern: re(String.raw`${B}sq0atp-[0-9A-Za-z_-]{22}${E_DASH}|${B}sq0csp-[0-9A-Za-z_-]{43}${E_DASH}`),
  },
  {
    name: 'planetscale-token',
    severity: 'block',
    keywords: ['pscale_'],
    pattern: re(String.raw`${B}pscale_(?:pw|tkn|oauth)_[A-Za-z0-9_.-]{32,64}`),
  },
  {
    name: 'supabase-token',
    severity: 'block',
    keywords: ['sbp_', 'sb_secret_'],
    pattern: re(String.raw`${B}sbp_[a-f0-9]{40}${E}|${B}sb_secret_[A-Za-z0-9_-]{20,}`),
  },
  {
    name: 'age-secret-key',
    severity: 'block',
    keywords: ['age-secret-key-1'],
    pattern: re(String.raw`${B}AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${E}`),
  },
  {
    name: 'figma-token',
    severity: 'block',
    keywords: ['figd_'],
    pattern: re(String.raw`${B}figd_[A-Za-z0-9_-]{40,}`),
  },
  {
    name: 'notion-token',
    severity: 'block',
    keywords: ['ntn_', 'secret_'],
    // Internal integration tokens: "ntn_" (current) or "secret_" and 43 base62 (earlier).
    pattern: re(String.raw`${B}ntn_[A-Za-z0-9]{40,50}${E}|${B}secret_[A-Za-z0-9]{43}${E}`),
    check: (secret) => (/\d/.test(secret) && /[A-Z]/.test(secret) ? 'block' : null),
  },
  {
    name: 'airtable-token',
    severity: 'block',
    keywords: ['pat'],
    // Personal access tokens: "pat", 14 characters, a dot, 64 hex.
    pattern: re(String.raw`${B}pat[A-Za-z0-9]{14}\.[a-f0-9]{64}${E}`),
  },
  {
    name: 'replicate-token',
    severity: 'block',
    keywords: ['r8_'],
    pattern: re(String.raw`${B}r8_[A-Za-z0-9]{37}${E}`),
  },
  {
    name: 'groq-api-key',
    severity: 'block',
    keywords: ['gsk_'],
    pattern: re(String.raw`${B}gsk_[A-Za-z0-9]{52}${E}`),
  },
  {
    name: 'xai-api-key',
    severity: 'block',
    keywords: ['xai-'],
    pattern: re(String.raw`${B}xai-[A-Za-z0-9]{80}${E}`),
  },
  {
    name: 'perplexity-api-key',
    severity: 'block',
    keywords: ['pplx-'],
    pattern: re(String.raw`${B}pplx-[A-Za-z0-9]{48}${E}`),
  },
  {
    name: 'onepassword-service-token',
    severity: 'block',
    keywords: ['ops_eyj'],
    pattern: re(String.raw`${B}ops_eyJ[A-Za-z0-9+/=_-]{100,}`),
  },
  {
    name: 'pulumi-token',
    severity: 'block',
    keywords: ['pul-'],
    pattern: re(String.raw`${B}pul-[a-f0-9]{40}${E}`),
  },
  {
    name: 'buildkite-token',
    severity: 'block',
    keywords: ['bkua_'],
    pattern: re(String.raw`${B}bkua_[a-f0-9]{40}${E}`),
  },
  {
    name: 'contentful-token',
    severity: 'block',
    keywords: ['cfpat-'],
    pattern: re(String.raw`${B}CFPAT-[A-Za-z0-9_-]{43}${E_DASH}`),
  },
  {
    name: 'mapbox-secret-token',
    severity: 'block',
    keywords: ['sk.eyj'],
    pattern: re(String.raw`${B}sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`),
  },
  {
    name: 'firebase-cloud-messaging-key',
    severity: 'block',
    keywords: [':apa91b'],
    pattern: re(String.raw`${B}AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{120,}`),
  },
  {
    name: 'alibaba-access-key-id',
    severity: 'block',
    keywords: ['ltai'],
    pattern: re(String.raw`${B}LTAI[A-Za-z0-9]{12,20}${E}`),
    check: (secret) => (/\d/.test(secret.slice(4)) && /[a-z]/.test(secret.slice(4)) ? 'block' : null),
  },
  {
    name: 'heroku-api-key',
    severity: 'block',
    keywords: ['hrku-'],
    pattern: re(String.raw`${B}HRKU-[A-Za-z0-9_-]{30,}`),
  },
  {
    name: 'circleci-token',
    severity: 'block',
    keywords: ['ccipat_', 'cciprj_'],
    // Personal (CCIPAT_) and project (CCIPRJ_) API tokens: 22 characters, "_", 40 hex.
    pattern: re(String.raw`${B}CCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}${E}`),
  },
  {
    name: 'tailscale-key',
    severity: 'block',
    keywords: ['tskey-'],
    // Auth, API, OAuth client, SCIM and webhook keys: "tskey-<kind>-", a key id, "-", the secret.
    pattern: re(String.raw`${B}tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}${E}`),
  },
  {
    name: 'azure-sas-signature',
    severity: 'block',
    keywords: ['sig='],
    // A shared access signature URL: the signed version (sv=) and the signature (sig=, HMAC-SHA256 in base64, URL-escaped).
    pattern: /[?&]sv=\d{4}-\d{2}-\d{2}[^\s"'<>]{0,400}?[?&]sig=((?:[A-Za-z0-9+/]|%2[BbFf]){30,}(?:=|%3[Dd]){0,2})/g,
    secretGroup: 1,
  },
  {
    name: 'readme-api-key',
    severity: 'block',
    keywords: ['rdme_'],
    // ReadMe API keys: "rdme_" and 70 base62 characters.
    pattern: re(String.raw`${B}rdme_[A-Za-z0-9]{64,80}${E}`),
  },
  {
    name: 'typeform-token',
    severity: 'block',
    keywords: ['tfp_'],
    // Typeform personal access tokens: "tfp_" and a base64url body.
    pattern: re(String.raw`${B}tfp_[A-Za-z0-9_-]{40,64}${E_DASH}`),
  },
  {
    name: 'posthog-personal-key',
    severity: 'block',
    keywords: ['phx_'],
    // PostHog personal API keys ("phx_"); project keys ("phc_") are public by design.
    pattern: re(String.raw`${B}phx_[A-Za-z0-9]{40,64}${E}`),
  },
  {
    name: 'prefect-api-key',
    severity: 'block',
    keywords: ['pnu_'],
    pattern: re(String.raw`${B}pnu_[A-Za-z0-9]{36}${E}`),
  },
  {
    name: 'netlify-token',
    severity: 'block',
    keywords: ['nfp_'],
    // Netlify personal access tokens: "nfp_" and 36 base62 characters.
    pattern: re(String.raw`${B}nfp_[A-Za-z0-9]{36}${E}`),
  },
  {
    name: 'adafruit-io-key',
    severity: 'block',
    keywords: ['aio_'],
    pattern: re(String.raw`${B}aio_[A-Za-z0-9]{28}${E}`),
    check: (secret) => (/\d/.test(secret.slice(4)) && /[A-Z]/.test(secret) ? 'block' : null),
  },
  {
    name: 'pinecone-api-key',
    severity: 'block',
    keywords: ['pcsk_'],
    // "pcsk_", a key id, "_", the secret.
    pattern: re(String.raw`${B}pcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{50,80}${E}`),
  },
  {
    name: 'sourcegraph-token',
    severity: 'block',
    keywords: ['sgp_'],
    // Access tokens: "sgp_", an optional 16-hex instance id and "_", then 40 hex.
    pattern: re(String.raw`${B}sgp_(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}${E}`),
  },
  {
    name: 'sonarqube-token',
    severity: 'block',
    keywords: ['sqa_', 'squ_', 'sqp_'],
    // Global analysis (sqa_), user (squ_) and project analysis (sqp_) tokens: 40 hex.
    pattern: re(String.raw`${B}sq[aup]_[a-f0-9]{40}${E}`),
  },
  {
    name: 'rubygems-api-key',
    severity: 'block',
    keywords: ['rubygems_'],
    pattern: re(String.raw`${B}rubygems_[a-f0-9]{48}${E}`),
  },
  {
    name: 'shippo-token',
    severity: 'block',
    keywords: ['shippo_live_', 'shippo_test_'],
    // Live keys block; test keys reach only the sandbox but are still keys.
    pattern: re(String.raw`${B}shippo_(?:live|test)_[a-f0-9]{40}${E}`),
  },
  {
    name: 'openrouter-api-key',
    severity: 'block',
    keywords: ['sk-or-v1-'],
    pattern: re(String.raw`${B}sk-or-v1-[a-f0-9]{64}${E}`),
  },
  {
    name: 'flutterwave-secret-key',
    severity: 'block',
    keywords: ['flwseck'],
    // Secret keys: "FLWSECK-" (or "FLWSECK_TEST-"), 32 hex, "-X".
    pattern: re(String.raw`${B}FLWSECK(?:_TEST)?-[a-f0-9]{32}-X${E}`),
  },
  {
    name: 'frameio-token',
    severity: 'block',
    keywords: ['fio-u-'],
    pattern: re(String.raw`${B}fio-u-[A-Za-z0-9_=-]{64}${E_DASH}`),
  },
  {
    name: 'dynatrace-token',
    severity: 'block',
    keywords: ['dt0c01.'],
    // "dt0c01.", a 24-character public id, ".", a 64-character secret (upper case and digits).
    pattern: re(String.raw`${B}dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}${E}`),
  },
  {
    name: 'easypost-api-key',
    severity: 'block',
    keywords: ['ezak', 'eztk'],
    // Production (EZAK) and test (EZTK) keys: 54 base62 characters after the prefix.
    pattern: re(String.raw`${B}EZ[AT]K[A-Za-z0-9]{54}${E}`),
  },
  {
    name: 'infracost-api-key',
    severity: 'block',
    keywords: ['ico-'],
    pattern: re(String.raw`${B}ico-[A-Za-z0-9]{32}${E}`),
    check: (secret) => (/\d/.test(secret.slice(4)) && /[A-Z]/.test(secret.slice(4)) ? 'block' : null),
  },
  {
    name: 'flyio-token',
    severity: 'block',
    keywords: ['flyv1 fm'],
    // Fly.io tokens: "FlyV1 " then one or more macaroons "fm1r_"/"fm2_…" in base64, comma separated.
    pattern: re(String.raw`${B}FlyV1 fm\d[a-z]?_[A-Za-z0-9+/=,_-]{100,}`),
  },
  {
    name: 'braintree-access-token',
    severity: 'block',
    keywords: ['access_token$'],
    // "access_token$<environment>$<merchant id>$<32 hex>".
    pattern: re(String.raw`${B}access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}${E}`),
  },
  {
    name: 'tencent-secret-id',
    severity: 'block',
    keywords: ['akid'],
    // Tencent Cloud SecretIds: "AKID" and 32 base62 characters.
    pattern: re(String.raw`${B}AKID[A-Za-z0-9]{32}${E}`),
    check: (secret) => (/\d/.test(secret.slice(4)) && /[a-z]/.test(secret) ? 'block' : null),
  },
  {
    name: 'google-refresh-token',
    severity: 'block',
    keywords: ['1//0'],
    // Google OAuth 2.0 refresh tokens begin "1//0" (then base64url).
    pattern: re(String.raw`(?<![A-Za-z0-9_/:])1//0[A-Za-z0-9_-]{40,}`),
  },
  {
    name: 'meta-access-token',
    severity: 'block',
    keywords: ['eaa'],
    // Meta (Facebook) Graph API access tokens begin "EAA"; Square access tokens begin "EAAA" (64 characters in all).
    pattern: re(String.raw`${B}EAA[A-Za-z0-9_-]{57,}${E_DASH}`),
    check: (secret) => (/\d/.test(secret) && /[a-z]/.test(secret) && /[A-Z]/.test(secret.slice(4)) ? 'block' : null),
  },
  {
    name: 'salesforce-access-token',
    severity: 'block',
    keywords: ['00d'],
    // A session id: the 15- or 18-character org id ("00D…"), "!", then the token.
    pattern: re(String.raw`${B}00D[A-Za-z0-9]{12,15}![A-Za-z0-9._-]{60,}`),
  },
  {
    name: 'twitter-bearer-token',
    severity: 'block',
    keywords: ['aaaaaaaaaaaaaaaaaaaa'],
    // App-only bearer tokens: a run of "A", then base62 with a URL-escaped "=" (%3D) in it.
    pattern: re(String.raw`${B}A{18,24}[A-Za-z0-9]{10,40}(?:%3D|=)[A-Za-z0-9]{30,60}${E}`),
    bodyAt: 24,
  },
  {
    name: 'teams-incoming-webhook',
    severity: 'block',
    keywords: ['webhook.office.com', 'outlook.office.com'],
    // The Microsoft Teams incoming webhook URL: its path carries the group, tenant, connector and secret ids.
    pattern:
      /https:\/\/[a-z0-9-]+\.(?:webhook\.office|outlook\.office)\.com\/webhookb2\/[0-9a-f-]{36}@[0-9a-f-]{36}\/IncomingWebhook\/[0-9a-f]{32}\/[0-9a-f-]{36}(?:\/[A-Za-z0-9_-]+)?/g,
  },
  {
    name: 'octopus-api-key',
    severity: 'block',
    keywords: ['api-'],
    // Octopus Deploy API keys: "API-" and 25–32 upper-case letters and digits.
    pattern: re(String.raw`${B}API-[A-Z0-9]{25,32}${E}`),
    check: (secret) => (/\d/.test(secret.slice(4)) && /[A-Z]/.test(secret.slice(4)) ? 'block' : null),
  },
  {
    name: 'asana-token',
    severity: 'block',
    keywords: ['1/', '2/'],
    // Personal access tokens: "<version>/<user id>/<app id>:<32 hex>".
    pattern: re(String.raw`(?<![A-Za-z0-9_/])[12]/\d{10,20}/\d{10,20}:[a-f0-9]{32}${E}`),
  },
  {
    name: 'nuget-api-key',
    severity: 'block',
    keywords: ['oy2'],
    // NuGet.org API keys: "oy2" and 43 lower-case letters and digits.
    pattern: re(String.raw`${B}oy2[a-z0-9]{43}${E}`),
    check: (secret) => (/\d/.test(secret.slice(3)) && /[a-z]/.test(secret.slice(3)) ? 'block' : null),
  },
  {
    name: 'jfrog-api-key',
    severity: 'block',
    keywords: ['akcp'],
    // JFrog Artifactory API keys: "AKCp" and 69 base62 characters.
    pattern: re(String.raw`${B}AKCp[A-Za-z0-9]{69}${E}`),
  },
  {
    name: 'langsmith-api-key',
    severity: 'block',
    keywords: ['lsv2_'],
    // LangSmith personal (lsv2_pt_) and service (lsv2_sk_) keys: 32 hex, "_", 10 hex.
    pattern: re(String.raw`${B}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}${E}`),
  },
  {
    name: 'resend-api-key',
    severity: 'block',
    keywords: ['re_'],
    // Resend API keys: "re_", an 8-character id, "_", a 24-character secret.
    pattern: re(String.raw`${B}re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}${E}`),
    check: (secret) =>
      /\d/.test(secret.slice(3)) && /[A-Z]/.test(secret) && /[a-z]/.test(secret.slice(3)) ? 'block' : null,
  },
  {
    name: 'launchdarkly-key',
    severity: 'block',
    keywords: ['api-', 'sdk-'],
    // LaunchDarkly access tokens ("api-") and server-side SDK keys ("sdk-"): the prefix and a UUID.
    pattern: re(String.raw`${B}(?:api|sdk)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E_DASH}`),
  },
  {
    name: 'hubspot-token',
    severity: 'block',
    keywords: ['pat-'],
    // HubSpot private app tokens: "pat-", the data region ("na1", "eu1"), "-", a UUID.
    pattern: re(
      String.raw`${B}pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E_DASH}`,
    ),
  },
  {
    name: 'neon-api-key',
    severity: 'block',
    keywords: ['napi_'],
    // Neon API keys: "napi_" and 64 lower-case letters and digits.
    pattern: re(String.raw`${B}napi_[a-z0-9]{64}${E}`),
    check: (secret) => (/\d/.test(secret.slice(5)) && /[a-z]/.test(secret.slice(5)) ? 'block' : null),
  },
  {
    name: 'brevo-api-key',
    severity: 'block',
    keywords: ['xkeysib-', 'xsmtpsib-'],
    // Brevo (Sendinblue) API (xkeysib-) and SMTP (xsmtpsib-) keys: 64 hex, "-", 16 base62.
    pattern: re(String.raw`${B}x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}${E}`),
  },
  {
    name: 'deepseek-api-key',
    severity: 'block',
    keywords: ['sk-'],
    // DeepSeek API keys: "sk-" and 32 hex characters.
    pattern: re(String.raw`${B}sk-[a-f0-9]{32}${E}`),
    check: (secret) => (/\d/.test(secret.slice(3)) && /[a-f]/.test(secret.slice(3)) ? 'block' : null),
  },
  {
    name: 'dropbox-token',
    severity: 'block',
    keywords: ['sl.'],
    // Short-lived access tokens: "sl." and a long base64url body.
    pattern: re(String.raw`${B}sl\.[A-Za-z0-9_-]{130,}`),
  },
];
