// Writes the labelled secret-lint corpus: `node --import tsx test/corpus/secrets/generate.ts test|train`.
// Token bodies are random characters of each provider's documented alphabet and length (seeded, so a
// split is reproducible); every sentence and line format below was written for this corpus. The test
// split was generated and committed first and is frozen: test/unit/lint-corpus.test.ts checks its digest,
// so a later change here can only change train.jsonl. Sentence templates are split between the two
// splits (even positions → test, odd → train) so tuning on train never sees the test split's phrasing.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Split = 'test' | 'train';

export interface SecretItem {
  id: string;
  text: string;
  /** The exact substring of `text` that is secret (disguise included), or null for a negative. */
  secret: string | null;
  kind: string;
  provider?: string;
  /** For a disguised positive: the secret as it is once the disguise is undone. */
  plain?: string;
  /** The unguessable part of the secret (a token without its public prefix, a key's body): a masked
   * excerpt must not show 8 characters of it in a row. Defaults to the secret (and `plain`). */
  core?: string;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let rnd: () => number = mulberry32(1);
let split: Split = 'test';

const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
function pick<T>(list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)]!;
}
/** Sentence templates: the test split draws from even positions, train from odd ones. */
function own<T>(list: readonly T[]): T[] {
  const offset = split === 'test' ? 0 : 1;
  return list.filter((_, i) => i % 2 === offset);
}
function pickOwn<T>(list: readonly T[]): T {
  return pick(own(list));
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const B62 = UPPER + LOWER + DIGITS;
const B64URL = B62 + '_-';
const B64 = B62 + '+/';
const HEX = '0123456789abcdef';
const B32 = UPPER + '234567';
const UPNUM = UPPER + DIGITS;
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
const LETTERS = UPPER + LOWER;

function chars(alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(rnd() * alphabet.length)];
  return out;
}
/** A random string from `alphabet` that has at least one digit and one letter (so it looks random). */
function mixed(alphabet: string, n: number): string {
  for (;;) {
    const s = chars(alphabet, n);
    if (/[0-9]/.test(s) && /[A-Za-z]/.test(s)) return s;
  }
}
const digits = (n: number): string => String(int(1, 9)) + chars(DIGITS, n - 1);
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
const hexOf = (s: string): string => Buffer.from(s, 'utf8').toString('hex');

// ---------------------------------------------------------------------------------------------
// Provider token formats (prefix + body in the provider's documented alphabet and length)

interface Token {
  token: string;
  core: string;
}
interface Provider {
  id: string;
  name: string;
  keys: string[];
  make: () => Token;
  /** A header or flag the provider's API uses, when there is a natural one. */
  header?: (t: string) => string;
}
const pre = (prefix: string, body: string): Token => ({ token: prefix + body, core: body });

const PROVIDERS: Provider[] = [
  {
    id: 'github-classic-pat',
    name: 'GitHub',
    keys: ['GITHUB_TOKEN', 'GH_TOKEN', 'GH_PAT'],
    make: () => pre('ghp_', mixed(B62, 36)),
    header: (t) => `Authorization: token ${t}`,
  },
  {
    id: 'github-fine-grained-pat',
    name: 'GitHub',
    keys: ['GITHUB_PAT', 'GH_TOKEN', 'RELEASE_TOKEN'],
    make: () => pre('github_pat_', `11${chars(UPNUM, 20)}_${mixed(B62, 59)}`),
    header: (t) => `Authorization: Bearer ${t}`,
  },
  {
    id: 'github-oauth',
    name: 'GitHub',
    keys: ['GITHUB_OAUTH_TOKEN', 'GH_OAUTH'],
    make: () => pre('gho_', mixed(B62, 36)),
  },
  {
    id: 'github-user-to-server',
    name: 'GitHub',
    keys: ['GH_USER_TOKEN', 'APP_USER_TOKEN'],
    make: () => pre('ghu_', mixed(B62, 36)),
  },
  {
    id: 'github-app-installation',
    name: 'GitHub',
    keys: ['GH_APP_TOKEN', 'INSTALLATION_TOKEN'],
    make: () => pre('ghs_', mixed(B62, 36)),
  },
  {
    id: 'github-refresh',
    name: 'GitHub',
    keys: ['GH_REFRESH_TOKEN', 'REFRESH'],
    make: () => pre('ghr_', mixed(B62, 36)),
  },
  {
    id: 'gitlab-pat',
    name: 'GitLab',
    keys: ['GITLAB_TOKEN', 'GL_TOKEN', 'CI_API_TOKEN'],
    make: () => pre('glpat-', mixed(B64URL, 20)),
    header: (t) => `PRIVATE-TOKEN: ${t}`,
  },
  {
    id: 'gitlab-deploy-token',
    name: 'GitLab',
    keys: ['DEPLOY_TOKEN', 'GITLAB_DEPLOY_PASSWORD'],
    make: () => pre('gldt-', mixed(B64URL, 20)),
  },
  {
    id: 'gitlab-runner-token',
    name: 'GitLab',
    keys: ['RUNNER_TOKEN', 'CI_RUNNER_AUTH'],
    make: () => pre('glrt-', mixed(B64URL, 20)),
  },
  {
    id: 'gitlab-trigger-token',
    name: 'GitLab',
    keys: ['TRIGGER_TOKEN', 'PIPELINE_TRIGGER'],
    make: () => pre('glptt-', mixed(HEX, 40)),
  },
  {
    id: 'gitlab-feed-token',
    name: 'GitLab',
    keys: ['FEED_TOKEN'],
    make: () => pre('glft-', mixed(B64URL, 20)),
  },
  {
    id: 'slack-bot',
    name: 'Slack',
    keys: ['SLACK_BOT_TOKEN', 'SLACK_TOKEN'],
    make: () => pre('xoxb-', `${digits(int(10, 13))}-${digits(int(10, 13))}-${mixed(B62, 24)}`),
    header: (t) => `Authorization: Bearer ${t}`,
  },
  {
    id: 'slack-user',
    name: 'Slack',
    keys: ['SLACK_USER_TOKEN'],
    make: () => pre('xoxp-', `${digits(int(10, 13))}-${digits(int(10, 13))}-${digits(13)}-${mixed(HEX, 32)}`),
  },
  {
    id: 'slack-app',
    name: 'Slack',
    keys: ['SLACK_APP_TOKEN'],
    make: () => pre('xapp-1-', `A${chars(UPNUM, 10)}-${digits(13)}-${mixed(HEX, 64)}`),
  },
  {
    id: 'slack-webhook',
    name: 'Slack',
    keys: ['SLACK_WEBHOOK_URL', 'ALERTS_WEBHOOK'],
    // The path after /services/ is the secret; the host is public.
    make: () => {
      const path = `T${chars(UPNUM, int(8, 10))}/B${chars(UPNUM, int(8, 10))}/${mixed(B62, 24)}`;
      return { token: path, core: path };
    },
  },
  {
    id: 'stripe-live-secret',
    name: 'Stripe',
    keys: ['STRIPE_SECRET_KEY', 'STRIPE_API_KEY'],
    make: () => pre('sk_live_', mixed(B62, pick([24, 99]))),
    header: (t) => `curl https://api.stripe.com/v1/charges -u ${t}:`,
  },
  {
    id: 'stripe-restricted',
    name: 'Stripe',
    keys: ['STRIPE_RESTRICTED_KEY', 'STRIPE_RK'],
    make: () => pre('rk_live_', mixed(B62, pick([24, 99]))),
  },
  {
    id: 'stripe-webhook-secret',
    name: 'Stripe',
    keys: ['STRIPE_WEBHOOK_SECRET', 'WHSEC'],
    make: () => pre('whsec_', mixed(B62, 32)),
  },
  {
    id: 'aws-access-key-id',
    name: 'AWS',
    keys: ['AWS_ACCESS_KEY_ID', 'aws_access_key_id'],
    make: () => pre(pick(['AKIA', 'ASIA']), chars(B32, 16)),
  },
  {
    id: 'google-api-key',
    name: 'Google',
    keys: ['GOOGLE_API_KEY', 'MAPS_KEY', 'GEMINI_API_KEY'],
    make: () => pre('AIza', mixed(B64URL, 35)),
  },
  {
    id: 'google-oauth-client-secret',
    name: 'Google',
    keys: ['GOOGLE_CLIENT_SECRET', 'OAUTH_CLIENT_SECRET'],
    make: () => pre('GOCSPX-', mixed(B64URL, 28)),
  },
  {
    id: 'openai-project',
    name: 'OpenAI',
    keys: ['OPENAI_API_KEY', 'OPENAI_KEY'],
    make: () => pre('sk-proj-', `${mixed(B64URL, 74)}T3BlbkFJ${mixed(B64URL, 74)}`),
    header: (t) => `Authorization: Bearer ${t}`,
  },
  {
    id: 'openai-legacy',
    name: 'OpenAI',
    keys: ['OPENAI_API_KEY'],
    make: () => pre('sk-', `${mixed(B62, 20)}T3BlbkFJ${mixed(B62, 20)}`),
  },
  {
    id: 'anthropic-api',
    name: 'Anthropic',
    keys: ['ANTHROPIC_API_KEY', 'CLAUDE_KEY'],
    make: () => pre('sk-ant-api03-', `${mixed(B64URL, 93)}AA`),
    header: (t) => `x-api-key: ${t}`,
  },
  {
    id: 'anthropic-admin',
    name: 'Anthropic',
    keys: ['ANTHROPIC_ADMIN_KEY'],
    make: () => pre('sk-ant-admin01-', `${mixed(B64URL, 93)}AA`),
  },
  {
    id: 'npm',
    name: 'npm',
    keys: ['NPM_TOKEN', 'NODE_AUTH_TOKEN'],
    make: () => pre('npm_', mixed(B62, 36)),
  },
  {
    id: 'pypi',
    name: 'PyPI',
    keys: ['PYPI_TOKEN', 'TWINE_PASSWORD'],
    make: () => pre('pypi-AgEIcHlwaS5vcmc', mixed(B64URL, int(60, 150))),
  },
  {
    id: 'huggingface',
    name: 'Hugging Face',
    keys: ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'],
    make: () => pre('hf_', chars(LETTERS, 34)),
    header: (t) => `Authorization: Bearer ${t}`,
  },
  {
    id: 'twilio-auth-token',
    name: 'Twilio',
    keys: ['TWILIO_AUTH_TOKEN'],
    make: () => pre('', mixed(HEX, 32)),
  },
  {
    id: 'sendgrid',
    name: 'SendGrid',
    keys: ['SENDGRID_API_KEY', 'SMTP_PASS'],
    make: () => pre('SG.', `${mixed(B64URL, 22)}.${mixed(B64URL, 43)}`),
  },
  {
    id: 'mailgun',
    name: 'Mailgun',
    keys: ['MAILGUN_API_KEY'],
    make: () =>
      rnd() < 0.5 ? pre('key-', mixed(HEX, 32)) : pre('', `${mixed(HEX, 32)}-${chars(HEX, 8)}-${chars(HEX, 8)}`),
  },
  {
    id: 'shopify',
    name: 'Shopify',
    keys: ['SHOPIFY_ACCESS_TOKEN', 'SHOPIFY_API_SECRET'],
    make: () => pre(pick(['shpat_', 'shpca_', 'shppa_', 'shpss_']), mixed(HEX, 32)),
    header: (t) => `X-Shopify-Access-Token: ${t}`,
  },
  {
    id: 'digitalocean',
    name: 'DigitalOcean',
    keys: ['DIGITALOCEAN_TOKEN', 'DO_TOKEN'],
    make: () => pre(pick(['dop_v1_', 'doo_v1_', 'dor_v1_']), mixed(HEX, 64)),
  },
  {
    id: 'docker-hub',
    name: 'Docker Hub',
    keys: ['DOCKERHUB_TOKEN', 'DOCKER_PASSWORD'],
    make: () => pre('dckr_pat_', mixed(B64URL, 27)),
  },
  {
    id: 'databricks',
    name: 'Databricks',
    keys: ['DATABRICKS_TOKEN'],
    make: () => pre('dapi', mixed(HEX, 32) + (rnd() < 0.3 ? '-2' : '')),
  },
  {
    id: 'doppler',
    name: 'Doppler',
    keys: ['DOPPLER_TOKEN'],
    make: () =>
      rnd() < 0.5
        ? pre(pick(['dp.pt.', 'dp.sa.', 'dp.ct.']), mixed(B62, 43))
        : pre(`dp.st.${pick(['dev', 'stg', 'prd'])}.`, mixed(B62, 40)),
  },
  {
    id: 'vault',
    name: 'Vault',
    keys: ['VAULT_TOKEN'],
    make: () =>
      rnd() < 0.7 ? pre('hvs.', `CAESI${mixed(B64URL, int(85, 95))}`) : pre(pick(['hvb.', 'hvr.']), mixed(B64URL, 90)),
    header: (t) => `X-Vault-Token: ${t}`,
  },
  {
    id: 'linear',
    name: 'Linear',
    keys: ['LINEAR_API_KEY'],
    make: () => pre('lin_api_', mixed(B62, 40)),
  },
  {
    id: 'sentry-user',
    name: 'Sentry',
    keys: ['SENTRY_AUTH_TOKEN'],
    make: () => pre('sntryu_', mixed(HEX, 64)),
  },
  {
    id: 'sentry-org',
    name: 'Sentry',
    keys: ['SENTRY_AUTH_TOKEN'],
    make: () => {
      const claims = `{"iat":${digits(10)}.${digits(6)},"url":"https://sentry.io","region_url":"https://${pick(['us', 'de'])}.sentry.io","org":"${pick(['acme', 'northwind', 'kestrel-labs'])}"}`;
      return pre('sntrys_', `${b64url(claims)}_${mixed(B64URL, 43)}`);
    },
  },
  {
    id: 'grafana-service-account',
    name: 'Grafana',
    keys: ['GRAFANA_TOKEN', 'GF_SA_TOKEN'],
    make: () => pre('glsa_', `${mixed(B62, 32)}_${chars(HEX, 8)}`),
  },
  {
    id: 'grafana-cloud',
    name: 'Grafana Cloud',
    keys: ['GRAFANA_CLOUD_TOKEN'],
    make: () =>
      pre(
        'glc_',
        b64(`{"o":"${digits(6)}","n":"stack-${digits(6)}-hm-read","k":"${mixed(B62, 24)}","m":{"r":"prod-eu-west-2"}}`),
      ),
  },
  {
    id: 'discord-bot',
    name: 'Discord',
    keys: ['DISCORD_TOKEN', 'DISCORD_BOT_TOKEN'],
    make: () => {
      const t = `${b64url(digits(int(18, 19)))}.${mixed(B64URL, 6)}.${mixed(B64URL, 38)}`;
      return { token: t, core: t.slice(t.indexOf('.') + 1) };
    },
    header: (t) => `Authorization: Bot ${t}`,
  },
  {
    id: 'discord-webhook',
    name: 'Discord',
    keys: ['DISCORD_WEBHOOK'],
    make: () => {
      const t = `${digits(19)}/${mixed(B64URL, 68)}`;
      return { token: t, core: t.slice(20) };
    },
  },
  {
    id: 'telegram-bot',
    name: 'Telegram',
    keys: ['TELEGRAM_BOT_TOKEN', 'TG_TOKEN'],
    make: () => {
      const t = `${digits(int(9, 10))}:AA${mixed(B64URL, 33)}`;
      return { token: t, core: t.slice(t.indexOf(':') + 1) };
    },
  },
  {
    id: 'jwt',
    name: 'JWT',
    keys: ['ACCESS_TOKEN', 'SUPABASE_SERVICE_ROLE_KEY', 'ID_TOKEN'],
    make: () => {
      const alg = pick(['HS256', 'RS256', 'ES256']);
      const header = b64url(`{"alg":"${alg}","typ":"JWT"}`);
      const payload = b64url(
        `{"sub":"${pick(['svc-deploy', 'u_', 'robot-'])}${digits(6)}","role":"${pick(['service_role', 'admin', 'ci'])}","iat":${digits(10)},"exp":${digits(10)}}`,
      );
      const sig = mixed(B64URL, alg === 'RS256' ? 342 : alg === 'ES256' ? 86 : 43);
      return { token: `${header}.${payload}.${sig}`, core: sig };
    },
    header: (t) => `Authorization: Bearer ${t}`,
  },
  {
    id: 'postman',
    name: 'Postman',
    keys: ['POSTMAN_API_KEY'],
    make: () => pre('PMAK-', `${mixed(HEX, 24)}-${mixed(HEX, 34)}`),
  },
  {
    id: 'figma',
    name: 'Figma',
    keys: ['FIGMA_TOKEN'],
    make: () => pre('figd_', mixed(B64URL, 40)),
  },
  {
    id: 'new-relic-user-key',
    name: 'New Relic',
    keys: ['NEW_RELIC_API_KEY'],
    make: () => pre('NRAK-', mixed(UPNUM, 27)),
  },
  {
    id: 'supabase-pat',
    name: 'Supabase',
    keys: ['SUPABASE_ACCESS_TOKEN'],
    make: () => pre('sbp_', mixed(HEX, 40)),
  },
  {
    id: 'planetscale',
    name: 'PlanetScale',
    keys: ['PLANETSCALE_TOKEN', 'PSCALE_PASSWORD'],
    make: () => pre(pick(['pscale_tkn_', 'pscale_pw_']), mixed(B64URL, 43)),
  },
  {
    id: 'terraform-cloud',
    name: 'Terraform Cloud',
    keys: ['TFE_TOKEN', 'TF_API_TOKEN'],
    make: () => {
      const t = `${mixed(B62, 14)}.atlasv1.${mixed(B62, 67)}`;
      return { token: t, core: t.slice(23) };
    },
  },
  {
    id: 'pulumi',
    name: 'Pulumi',
    keys: ['PULUMI_ACCESS_TOKEN'],
    make: () => pre('pul-', mixed(HEX, 40)),
  },
  {
    id: 'tailscale',
    name: 'Tailscale',
    keys: ['TS_AUTHKEY', 'TAILSCALE_API_KEY'],
    make: () => pre(`tskey-${pick(['auth', 'api'])}-`, `k${mixed(B62, 10)}CNTRL-${mixed(B62, 33)}`),
  },
  {
    id: 'age-secret-key',
    name: 'age',
    keys: ['SOPS_AGE_KEY'],
    make: () => pre('AGE-SECRET-KEY-1', chars(BECH32, 58)),
  },
  {
    id: 'square',
    name: 'Square',
    keys: ['SQUARE_ACCESS_TOKEN', 'SQUARE_APP_SECRET'],
    make: () => (rnd() < 0.5 ? pre('EAAA', mixed(B64URL, 60)) : pre('sq0csp-', mixed(B64URL, 43))),
  },
  {
    id: 'mapbox-secret',
    name: 'Mapbox',
    keys: ['MAPBOX_SECRET_TOKEN'],
    make: () => {
      const t = `sk.${b64url(`{"u":"${pick(['fleetmaps', 'ops-team', 'cartography'])}","a":"${chars(LOWER + DIGITS, 25)}"}`)}.${mixed(B64URL, 22)}`;
      return { token: t, core: t.slice(-22) };
    },
  },
  {
    id: 'notion',
    name: 'Notion',
    keys: ['NOTION_TOKEN'],
    make: () => (rnd() < 0.5 ? pre('ntn_', `${digits(11)}${mixed(B62, 35)}`) : pre('secret_', mixed(B62, 43))),
  },
  {
    id: 'airtable',
    name: 'Airtable',
    keys: ['AIRTABLE_TOKEN'],
    make: () => pre('pat', `${mixed(B62, 14)}.${mixed(HEX, 64)}`),
  },
  {
    id: 'buildkite',
    name: 'Buildkite',
    keys: ['BUILDKITE_API_TOKEN'],
    make: () => pre('bkua_', mixed(HEX, 40)),
  },
  {
    id: 'circleci',
    name: 'CircleCI',
    keys: ['CIRCLE_TOKEN'],
    make: () => pre('CCIPAT_', `${mixed(B62, 22)}_${mixed(HEX, 40)}`),
  },
  {
    id: 'contentful',
    name: 'Contentful',
    keys: ['CONTENTFUL_MANAGEMENT_TOKEN'],
    make: () => pre('CFPAT-', mixed(B64URL, 43)),
  },
  {
    id: 'atlassian',
    name: 'Atlassian',
    keys: ['JIRA_API_TOKEN', 'ATLASSIAN_TOKEN'],
    make: () => pre('ATATT3xFfGF0', `${mixed(B64URL, 170)}=${chars(HEX.toUpperCase(), 8)}`),
  },
  {
    id: 'heroku',
    name: 'Heroku',
    keys: ['HEROKU_API_KEY'],
    make: () => pre('HRKU-AA', mixed(B64URL, 58)),
  },
  {
    id: 'dropbox',
    name: 'Dropbox',
    keys: ['DROPBOX_TOKEN'],
    make: () => pre('sl.', mixed(B64URL, int(130, 140))),
  },
  {
    id: 'firebase-fcm-server-key',
    name: 'Firebase',
    keys: ['FCM_SERVER_KEY'],
    make: () => pre('AAAA', `${mixed(B64URL, 7)}:APA91b${mixed(B64URL, 134)}`),
  },
];

// Providers whose token has no prefix of its own: only a key name or a sentence says what it is.
const CONTEXT_ONLY = new Set(['twilio-auth-token']);

// ---------------------------------------------------------------------------------------------
// Line formats a token is placed in

const lowerKey = (k: string): string => k.toLowerCase();
const camelKey = (k: string): string => lowerKey(k).replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

type Format = (key: string, tok: string, p: Provider) => string;

const FORMATS: Format[] = [
  (k, t) => `${k}=${t}`,
  (k, t) => `# ${pick(['staging', 'prod', 'shared CI', 'local dev'])}\n${k}="${t}"\nLOG_LEVEL=info`,
  (k, t) => `${pick(['deploy', 'integrations', 'release', 'notify'])}:\n  ${lowerKey(k)}: ${t}\n  retries: 3`,
  (k, t) => `{"${camelKey(k)}": "${t}", "region": "${pick(['eu-west-1', 'us-east-2', 'ap-south-1'])}"}`,
  (k, t) => `export ${k}='${t}'`,
  (k, t) => `\`\`\`sh\n${k}=${t} npm run ${pick(['release', 'deploy', 'seed'])}\n\`\`\``,
  (k, t) => `[${pick(['default', 'ci', 'publish'])}]\n${lowerKey(k)} = "${t}"`,
  (k, t) => `docker run --rm -e ${k}=${t} ${pick(['ghcr.io/acme/worker:2.3', 'app:latest', 'registry.local/api:dev'])}`,
  (k, t) => `const ${camelKey(k)} = '${t}';`,
  (k, t) => `client = Client(${lowerKey(k).includes('token') ? 'token' : 'api_key'}="${t}")`,
  (k, t) => `- ${k}: \`${t}\` (${pick(['set in the CI settings', 'rotated in March', 'owned by the platform team'])})`,
  (_k, t, p) => (p.header ? p.header(t) : `Authorization: Bearer ${t}`),
  (k, t) => `  - name: ${k}\n    value: "${t}"`,
  (k, t) => `<add key="${k}" value="${t}" />`,
  (_k, t) => `${pick(['deploy.sh', 'tool', './bin/sync'])} --token ${t} --dry-run`,
];

// Sentences a token is written into: a memory note in ordinary words (split between test and train).
const TOKEN_SENTENCES: ((t: string, name: string) => string)[] = [
  (t, n) => `The ${n} token for the release bot is ${t}, do not rotate it before Friday.`,
  (t, n) => `Use ${t} when the ${n} integration asks for credentials in staging.`,
  (t, n) => `If the nightly job fails with 401, the ${n} key it should be using is ${t}.`,
  (t, n) => `Note for the team: our shared ${n} credential is currently ${t}`,
  (t, n) => `${n}: ${t} — this one has write access, be careful.`,
  (t, n) => `When running the migration locally, paste ${t} into the ${n} prompt.`,
  (t, _n) => `Quick reminder that the bot authenticates with ${t} until we move it to the vault.`,
  (t, n) => `The ${n} access for the demo account goes through ${t}.`,
  (t, n) => `I generated a new ${n} token (${t}) for the preview environments.`,
  (t, _n) => `Smoke tests read their credential from the file, which holds ${t}.`,
  (t, n) => `Fallback ${n} credential if the primary is revoked: ${t}`,
  (t, _n) => `For the data backfill we authenticated as the service user with ${t}.`,
  (t, n) => `Ops said the ${n} secret is ${t} and that it expires at the end of the quarter.`,
  (t, _n) => `${t} is the value to put in the deploy settings page.`,
  (t, n) => `Der ${n}-Token für Staging lautet ${t} (bitte nicht weitergeben).`,
  (t, n) => `ステージング用の${n}トークンは ${t} です。`,
  (t, n) => `Pairing notes 🚀: the ${n} token ${t} unlocks the sandbox org.`,
  (t, _n) => `Remember: \`${t}\` is what the webhook relay expects in its config.`,
];

// ---------------------------------------------------------------------------------------------
// Items

let counter = 0;
const items: SecretItem[] = [];
function add(item: Omit<SecretItem, 'id'>): void {
  counter += 1;
  const id = `${split}-${String(counter).padStart(4, '0')}`;
  const it: SecretItem = { id, ...item };
  if (it.secret !== null) {
    const first = it.text.indexOf(it.secret);
    if (first < 0 || it.text.indexOf(it.secret, first + 1) >= 0) {
      throw new Error(`${id}: the secret must occur exactly once in its text`);
    }
  }
  items.push(it);
}

function providerTokenItems(perProvider: number): void {
  for (const p of PROVIDERS) {
    for (let i = 0; i < perProvider; i++) {
      const { token, core } = p.make();
      let text: string;
      if (p.id === 'slack-webhook') {
        text = pick([
          `SLACK_WEBHOOK_URL=https://hooks.slack.com/services/${token}`,
          `alerts:\n  slack: "https://hooks.slack.com/services/${token}"`,
          `Post build failures to https://hooks.slack.com/services/${token} (the #ci-alerts channel).`,
          `curl -X POST -H 'Content-type: application/json' --data '{"text":"deployed"}' https://hooks.slack.com/services/${token}`,
        ]);
      } else if (p.id === 'discord-webhook') {
        text = pick([
          `DISCORD_WEBHOOK=https://discord.com/api/webhooks/${token}`,
          `The release announcer posts to https://discord.com/api/webhooks/${token} after each tag.`,
          `{"webhook": "https://discordapp.com/api/webhooks/${token}"}`,
        ]);
      } else if (p.id === 'aws-access-key-id' && rnd() < 0.5) {
        text = pick([
          `[default]\naws_access_key_id = ${token}\nregion = eu-central-1`,
          `The CI user's access key id is ${token}; its secret lives in the vault.`,
        ]);
      } else if (CONTEXT_ONLY.has(p.id) || rnd() < 0.7) {
        text = pick(FORMATS)(pick(p.keys), token, p);
      } else {
        text = pickOwn(TOKEN_SENTENCES)(token, p.name);
      }
      add({ text, secret: token, kind: 'provider-token', provider: p.id, core });
    }
  }
}

// AWS secret access keys, Azure storage keys and other values a key name alone identifies.
function contextProviderItems(n: number): void {
  for (let i = 0; i < n; i++) {
    const which = i % 4;
    if (which === 0) {
      const id = `AKIA${chars(B32, 16)}`;
      const secret = mixed(B64, 40);
      const text = pick([
        `[default]\naws_access_key_id = ${id}\naws_secret_access_key = ${secret}`,
        `AWS_ACCESS_KEY_ID=${id}\nAWS_SECRET_ACCESS_KEY=${secret}`,
        `{"AccessKeyId": "${id}", "SecretAccessKey": "${secret}"}`,
        `aws configure set aws_secret_access_key ${secret} --profile backup`,
        `The backup user's secret access key is ${secret} (access key id ${id}).`,
      ]);
      add({ text, secret, kind: 'provider-token', provider: 'aws-secret-access-key' });
    } else if (which === 1) {
      const key = `${mixed(B64, 86)}==`;
      const account = pick(['acmeprodlogs', 'stdatalake01', 'buildcache', 'mediauploads']);
      const conn = `DefaultEndpointsProtocol=https;AccountName=${account};AccountKey=${key};EndpointSuffix=core.windows.net`;
      const text = pick([
        `AZURE_STORAGE_CONNECTION_STRING="${conn}"`,
        `"ConnectionStrings": { "Blob": "${conn}" }`,
        `storage:\n  connection: ${conn}`,
        `Connect the exporter with ${conn} until managed identity works.`,
      ]);
      add({ text, secret: key, kind: 'provider-token', provider: 'azure-storage-key' });
    } else if (which === 2) {
      const sig = `${mixed(B64, 43)}=`;
      const enc = sig.replace(/\+/g, '%2B').replace(/\//g, '%2F').replace(/=/g, '%3D');
      const text = `https://${pick(['acmeprodlogs', 'exports01'])}.blob.core.windows.net/${pick(['reports', 'backups'])}?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-31T00:00:00Z&spr=https&sig=${enc}`;
      add({ text, secret: enc, kind: 'provider-token', provider: 'azure-sas-signature' });
    } else {
      const user = pick(['deploy', 'ci-bot', 'admin', 'grafana']);
      const pass = mixed(B62 + '!#%*', int(12, 22));
      const encoded = b64(`${user}:${pass}`);
      const text = pick([
        `Authorization: Basic ${encoded}`,
        `curl -H "Authorization: Basic ${encoded}" https://${pick(['nexus', 'artifacts', 'grafana'])}.internal.example/api/health`,
        `headers:\n  Authorization: Basic ${encoded}`,
      ]);
      add({ text, secret: encoded, kind: 'basic-auth', provider: 'http-basic', plain: `${user}:${pass}` });
    }
  }
}

// ----- keyword-context secrets

const WORDS = [
  'harbor',
  'lantern',
  'copper',
  'maple',
  'orbit',
  'violet',
  'granite',
  'pepper',
  'falcon',
  'meadow',
  'tundra',
  'saffron',
  'walnut',
  'comet',
  'juniper',
  'quartz',
  'ember',
  'thistle',
  'cobalt',
  'willow',
  'sparrow',
  'basalt',
];
const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);

/** A password as people make them: random, word+digits+symbol, or hex/base64 for machine secrets. */
function password(): string {
  const r = rnd();
  if (r < 0.3) return mixed(B62 + '!@#$%^&*-_+=', int(12, 24));
  if (r < 0.55) return `${cap(pick(WORDS))}${pick(['!', '#', '$', '-', '.', '@'])}${digits(4)}${cap(pick(WORDS))}`;
  if (r < 0.7) return mixed(HEX, pick([32, 40, 64]));
  if (r < 0.85) return mixed(B64URL, int(24, 44));
  return `${pick(WORDS)}-${digits(3)}-${pick(WORDS)}-${chars(UPPER, 2)}${digits(2)}`;
}

const PASSWORD_KEYS = [
  'password',
  'db_pass',
  'DB_PASSWORD',
  'POSTGRES_PASSWORD',
  'MYSQL_ROOT_PASSWORD',
  'admin_password',
  'passwd',
  'pwd',
  'pw',
  'redis_password',
  'smtp_password',
  'ldap_bind_password',
  'keystore_password',
  'root_pass',
  'passphrase',
  'ssh_passphrase',
  'client_secret',
  'app_secret',
  'api_key',
  'apiKey',
  'API_SECRET',
  'auth_token',
  'access_token',
  'secret',
  'SECRET_KEY',
  'JWT_SECRET',
  'SESSION_SECRET',
  'signing_key',
  'encryption_key',
  'webhook_secret',
  'credentials',
  'service_password',
  'DATADOG_API_KEY',
  'ALGOLIA_ADMIN_KEY',
  'CLOUDFLARE_API_TOKEN',
  'OKTA_API_TOKEN',
  'storePassword',
  'ansible_become_pass',
  'bind_dn_password',
  'token',
];

const KEYWORD_FORMATS: ((k: string, v: string) => string)[] = [
  (k, v) => `${k}: ${v}`,
  (k, v) => `${k} = "${v}"`,
  (k, v) => `${k.toUpperCase()}=${v}`,
  (k, v) => `"${k}": "${v}",`,
  (k, v) => `database:\n  host: db.internal\n  user: app\n  ${k}: '${v}'`,
  (k, v) => `<${k}>${v}</${k}>`,
  (k, v) => `spring.datasource.${k}=${v}`,
  (k, v) => `export ${k.toUpperCase()}="${v}"`,
  (k, v) => `${k} => '${v}',`,
  (k, v) => `--${k.replace(/_/g, '-')}=${v}`,
  (k, v) => `settings.${k} = '${v}'`,
  (k, v) => `${k}:${v}`,
];

// Command lines and files whose syntax says "this is a password" without a keyword name.
const PASSWORD_COMMANDS: ((v: string) => string)[] = [
  (v) => `mysql -u root -p${v} -h 127.0.0.1 shop`,
  (v) => `PGPASSWORD='${v}' psql -h db.internal -U reporting analytics`,
  (v) => `sshpass -p '${v}' ssh deploy@10.0.4.12`,
  (v) => `curl -u ci-bot:${v} https://nexus.internal.example/service/rest/v1/status`,
  (v) => `machine git.internal.example\n  login deploy\n  password ${v}`,
  (v) => `docker login registry.internal.example -u robot -p ${v}`,
  (v) => `Server=sql01;Database=Orders;User Id=svc_orders;Password=${v};`,
  (v) => `[pypi]\nusername = __token__\npassword = ${v}`,
  (v) => `htpasswd -b -c /etc/nginx/.htpasswd admin ${v}`,
  (v) => `redis-cli -h cache.internal -a ${v} ping`,
];

function keywordItems(n: number): void {
  for (let i = 0; i < n; i++) {
    const v = password();
    const text = i % 4 === 3 ? pick(PASSWORD_COMMANDS)(v) : pick(KEYWORD_FORMATS)(pick(PASSWORD_KEYS), v);
    add({ text, secret: v, kind: 'keyword-context' });
  }
}

// A few honest hard cases: a real password that happens to be a dictionary word or short.
const WEAK = ['sunshine', 'dragon42', 'letmein', 'Summer2024', 'hunter2', 'welcome1', 'trustno1', 'qwerty123'];
function weakItems(n: number): void {
  for (let i = 0; i < n; i++) {
    const v = pick(WEAK);
    const text = pick([
      `The staging admin password is ${v}, we should change it.`,
      `db_password: ${v}`,
      `The kiosk login is admin / ${v}.`,
      `MYSQL_ROOT_PASSWORD=${v}`,
    ]);
    add({ text, secret: v, kind: 'keyword-context-weak' });
  }
}

// ----- secrets in prose

const PROSE: ((v: string) => string)[] = [
  (v) => `The password for the build box is ${v}`,
  (v) => `use token ${v} for staging`,
  (v) => `I reset the admin password to ${v} this morning.`,
  (v) => `The wifi passphrase in the office is ${v}.`,
  (v) => `DB creds for the reporting replica: user reporting, pw ${v}`,
  (v) => `Log in to the Grafana instance as admin with ${v} as the password.`,
  (v) => `The shared secret between the two services is ${v}; both sides read it at start.`,
  (v) => `Our API key for the geocoder is ${v}, it has a daily quota of 10k.`,
  (v) => `If SSO is down, the break-glass password is ${v}.`,
  (v) => `The encryption passphrase for the backups is ${v} — keep it somewhere safe.`,
  (v) => `Jenkins credentials: username jenkins, password ${v}.`,
  (v) => `To unlock the signing key, type ${v} when gpg asks for the passphrase.`,
  (v) => `The token I used for the load test was ${v}.`,
  (v) => `For the VPN, the pre-shared key is ${v}.`,
  (v) => `the root pw on the old NAS is ${v} btw`,
  (v) => `Heads up: the password to the staging database changed to ${v}.`,
  (v) => `Access the partner SFTP with the password ${v} (user acme_upload).`,
  (v) => `The Redis instance needs AUTH ${v} before any command.`,
  (v) => `Webhook signing secret (for verifying payloads): ${v}`,
  (v) => `The keystore password is ${v} and the key alias is release.`,
  (v) => `My personal access token for the mirror is ${v}, it only has read scope.`,
  (v) => `Das Passwort für den Testserver ist ${v}.`,
  (v) => `Le mot de passe du compte de service est ${v}.`,
  (v) => `パスワードは ${v} です（本番ではありません）。`,
  (v) => `The client secret for the OAuth app is ${v}; the client id is in the README.`,
  (v) => `Credentials for the demo tenant → demo@acme.test / ${v}`,
  (v) => `The license server accepts ${v} as the admin secret.`,
  (v) => `For the printer's web UI the password is ${v} (it was never changed).`,
  (v) => `Set the session secret to ${v} in the local env so cookies survive restarts.`,
  (v) => `Bastion host: ssh ops@bastion, password ${v} until keys are set up.`,
  (v) => `Use ${v} as the password when the installer asks for the database.`,
  (v) => `The master key for the staging Meilisearch is ${v}.`,
  (v) => `the secret is ${v} (for the preview signer)`,
  (v) => `password is ${v} — lowercase, no spaces`,
  (v) => `Our Sonar token ${v} expires next month, renew it then.`,
  (v) => `The Kafka SASL password for the consumer group is ${v}.`,
];

function proseItems(n: number): void {
  for (let i = 0; i < n; i++) {
    const v = password();
    add({ text: pickOwn(PROSE)(v), secret: v, kind: 'prose' });
  }
}

// ----- DSNs with a password

const DSN_FORMATS: ((u: string, p: string, h: string) => string)[] = [
  (u, p, h) => `postgres://${u}:${p}@${h}:5432/app`,
  (u, p, h) => `postgresql://${u}:${p}@${h}/analytics?sslmode=require`,
  (u, p, h) => `mysql://${u}:${p}@${h}:3306/shop`,
  (u, p, h) => `mongodb+srv://${u}:${p}@${h}/orders?retryWrites=true&w=majority`,
  (_u, p, h) => `redis://:${p}@${h}:6379/0`,
  (_u, p, h) => `rediss://default:${p}@${h}:6380`,
  (u, p, h) => `amqps://${u}:${p}@${h}/vhost`,
  (u, p, h) => `https://${u}:${p}@${h}/repository/npm-private/`,
  (u, p, h) => `smtp://${u}:${p}@${h}:587`,
  (u, p, h) => `ftp://${u}:${p}@${h}/incoming`,
  (u, p, h) => `clickhouse://${u}:${p}@${h}:9440/default?secure=true`,
  (u, p, h) => `sqlserver://${u}:${p}@${h}:1433?database=Billing`,
];
const DSN_LINES: ((dsn: string) => string)[] = [
  (d) => `DATABASE_URL=${d}`,
  (d) => `db:\n  url: "${d}"`,
  (d) => `The reporting job connects to ${d} every hour.`,
  (d) => `{"connection": "${d}"}`,
  (d) => `psql "${d}" -c 'select 1'`,
  (d) => `Point the worker at ${d} when testing locally against the shared instance.`,
];

function dsnItems(n: number): void {
  for (let i = 0; i < n; i++) {
    const u = pick(['app', 'reporting', 'admin', 'svc_orders', 'etl', 'postgres']);
    let p = password().replace(/[@/:#?]/g, '');
    if (rnd() < 0.2) p = `${p.slice(0, 5)}%40${p.slice(5)}`; // a URL-escaped '@' inside the password
    const h = pick([
      'db.internal',
      'pg-prod-1.c9x2.eu-west-1.rds.amazonaws.com',
      'cluster0.ab12c.mongodb.net',
      '10.2.0.17',
      'mq.internal.example',
    ]);
    const dsn = pick(DSN_FORMATS)(u, p, h);
    add({ text: pick(DSN_LINES)(dsn), secret: p, kind: 'dsn' });
  }
  // JDBC and key=value connection strings carry the password as a parameter.
  for (let i = 0; i < Math.ceil(n / 5); i++) {
    const p = password().replace(/[;&@]/g, '');
    const text = pick([
      `jdbc:postgresql://db.internal:5432/app?user=app&password=${p}`,
      `jdbc:mysql://10.0.3.8:3306/shop?user=shop&password=${p}&useSSL=true`,
      `host=db.internal port=5432 dbname=app user=app password=${p} sslmode=require`,
    ]);
    add({ text, secret: p, kind: 'dsn' });
  }
}

// ----- private keys

function pemBody(lines: number, first = ''): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(i === 0 ? first + chars(B64, 64 - first.length) : chars(B64, 64));
  out.push(chars(B64, int(8, 60)) + pick(['', '=', '==']));
  return out.join('\n');
}

function privateKeyItems(n: number): void {
  const kinds: [string, string][] = [
    ['RSA PRIVATE KEY', 'MIIEow'],
    ['PRIVATE KEY', 'MIIEvQ'],
    ['EC PRIVATE KEY', 'MHcCAQEE'],
    ['OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjEAAAAA'],
    ['ENCRYPTED PRIVATE KEY', 'MIIFHDBO'],
    ['DSA PRIVATE KEY', 'MIIBuw'],
  ];
  for (let i = 0; i < n; i++) {
    if (i % 5 === 4) {
      // A cloud service account file: the key sits in a JSON string with \n escapes.
      const body = pemBody(int(10, 25), 'MIIEvg').replace(/\n/g, '\\n');
      const text = `{\n  "type": "service_account",\n  "project_id": "${pick(['acme-data', 'ml-pipelines-42', 'billing-prod'])}",\n  "private_key_id": "${chars(HEX, 40)}",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "loader@${pick(['acme-data', 'ml-pipelines-42'])}.iam.gserviceaccount.com"\n}`;
      add({ text, secret: body, kind: 'private-key', provider: 'google-service-account', core: body.slice(6, 40) });
      continue;
    }
    if (i % 7 === 6) {
      const body = pemBody(int(12, 20), 'lQdGBF');
      const text = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}\n=${chars(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----`;
      add({ text, secret: body, kind: 'private-key', provider: 'pgp', core: body.slice(6, 40) });
      continue;
    }
    const [label, start] = pick(kinds);
    const body = pemBody(int(6, 24), start);
    const block = `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
    const style = i % 3;
    if (style === 0) {
      add({
        text: `\`\`\`\n${block}\n\`\`\``,
        secret: body,
        kind: 'private-key',
        provider: label,
        core: body.slice(start.length, start.length + 40),
      });
    } else if (style === 1) {
      // Indented under a YAML block scalar, as in a Helm values file.
      const indented = body.replace(/\n/g, '\n    ');
      const text = `tls:\n  key: |\n    -----BEGIN ${label}-----\n    ${indented}\n    -----END ${label}-----`;
      add({
        text,
        secret: indented,
        kind: 'private-key',
        provider: label,
        core: body.slice(start.length, start.length + 40),
      });
    } else {
      const text = `The deploy key for the mirror (added to the repo settings yesterday):\n${block}`;
      add({
        text,
        secret: body,
        kind: 'private-key',
        provider: label,
        core: body.slice(start.length, start.length + 40),
      });
    }
  }
}

// ----- disguises

const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const BIDI = ['\u202e', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200f'];

function fullWidth(s: string): string {
  return [...s].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
}
/** Mathematical bold letters and digits: NFKC folds them to ASCII. */
function mathBold(s: string): string {
  return [...s]
    .map((c) => {
      if (c >= 'A' && c <= 'Z') return String.fromCodePoint(0x1d400 + c.charCodeAt(0) - 65);
      if (c >= 'a' && c <= 'z') return String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 97);
      if (c >= '0' && c <= '9') return String.fromCodePoint(0x1d7ce + c.charCodeAt(0) - 48);
      return c;
    })
    .join('');
}
const insertAt = (s: string, at: number, what: string): string => s.slice(0, at) + what + s.slice(at);
const midPoint = (s: string): number => int(Math.min(4, s.length - 1), Math.max(4, s.length - 4));

/** A token from a provider with a recognisable format, for the disguise items. */
function disguiseToken(): { token: string; core: string; provider: string; key: string } {
  if (rnd() < 0.2) {
    const v = password();
    return { token: v, core: v, provider: 'keyword-context', key: pick(['DB_PASSWORD', 'API_SECRET', 'password']) };
  }
  const candidates = PROVIDERS.filter(
    (p) => !CONTEXT_ONLY.has(p.id) && p.id !== 'slack-webhook' && p.id !== 'discord-webhook',
  );
  const p = pick(candidates);
  const { token, core } = p.make();
  return { token, core, provider: p.id, key: pick(p.keys) };
}

/** Places a disguised token in a line; `secret` is the disguised form exactly as it is in the text. */
function placeDisguised(key: string, disguised: string): string {
  return pick([
    `${key}=${disguised}`,
    `${lowerKey(key)}: "${disguised}"`,
    `export ${key}=${disguised}`,
    `Note: ${key} for staging is ${disguised} for now.`,
    `{"${camelKey(key)}": "${disguised}"}`,
    `- ${key} → ${disguised}`,
  ]);
}

const DISGUISES: Record<string, (tok: string, key: string) => { text: string; secret: string; core?: string }> = {
  wrapped: (t, k) => {
    const at = midPoint(t);
    const sep = pick(['\n', '\n  ', '\\\n', '\r\n', '\n    ']);
    const secret = t.slice(0, at) + sep + t.slice(at);
    const text = pick([
      `${k}=${secret}`,
      `The ${lowerKey(k).replace(/_/g, ' ')} we use for the nightly sync is ${secret}\nand it lives in the team vault too.`,
      `${lowerKey(k)}: >-\n  ${secret}`,
      `Paste this when asked:\n${secret}`,
    ]);
    return { text, secret };
  },
  'zero-width': (t, k) => {
    let s = insertAt(t, midPoint(t), pick(ZERO_WIDTH));
    if (rnd() < 0.3) s = insertAt(s, int(2, s.length - 2), pick(ZERO_WIDTH));
    return { text: placeDisguised(k, s), secret: s };
  },
  'soft-hyphen': (t, k) => {
    const s = insertAt(t, midPoint(t), '\u00ad');
    return { text: placeDisguised(k, s), secret: s };
  },
  fullwidth: (t, k) => {
    const s = rnd() < 0.6 ? fullWidth(t) : t.slice(0, 6) + fullWidth(t.slice(6));
    return { text: placeDisguised(k, s), secret: s };
  },
  'html-entity': (t, k) => {
    const at = midPoint(t);
    const c = t[at]!;
    const code = c.charCodeAt(0);
    const entity =
      c === '_' && rnd() < 0.4 ? '&lowbar;' : rnd() < 0.5 ? `&#${code};` : `&#x${code.toString(16).toUpperCase()};`;
    const s = t.slice(0, at) + entity + t.slice(at + 1);
    const text = pick([
      `<p>${k}: <code>${s}</code></p>`,
      `<input type="hidden" name="${lowerKey(k)}" value="${s}">`,
      placeDisguised(k, s),
    ]);
    return { text, secret: s };
  },
  'url-escape': (t, k) => {
    const at = midPoint(t);
    const hex = t.charCodeAt(at).toString(16).padStart(2, '0');
    const s = t.slice(0, at) + '%' + (rnd() < 0.5 ? hex.toUpperCase() : hex) + t.slice(at + 1);
    const text = pick([
      `https://api.example.com/v2/export?${lowerKey(k)}=${s}&format=csv`,
      `${lowerKey(k)}=${s}&grant_type=client_credentials`,
      placeDisguised(k, s),
    ]);
    return { text, secret: s };
  },
  'json-escape': (t, k) => {
    const at = midPoint(t);
    const esc = `\\u${t.charCodeAt(at).toString(16).padStart(4, '0')}`;
    const s = t.slice(0, at) + esc + t.slice(at + 1);
    const text = pick([`{"${camelKey(k)}": "${s}"}`, `{"env": {"${k}": "${s}"}, "cwd": "/srv/app"}`]);
    return { text, secret: s };
  },
  base64: (t, k) => {
    const line = rnd() < 0.75 ? `${k}=${t}` : t;
    const enc = b64(rnd() < 0.5 ? line : `${line}\n`);
    // The labelled span: the base64 characters whose 3-byte groups hold the token's bytes.
    const start = Buffer.byteLength(line.slice(0, line.length - t.length));
    const end = start + Buffer.byteLength(t);
    const secret = enc.slice(Math.floor(start / 3) * 4, Math.min(enc.length, Math.ceil(end / 3) * 4));
    const text = pick([
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-env\ntype: Opaque\ndata:\n  ${pick(['.env', 'credentials', 'config'])}: ${enc}`,
      `echo ${enc} | base64 -d >> .env`,
      `The CI variable ${pick(['ENV_FILE_B64', 'SECRETS_BLOB'])} holds ${enc}, decode it before the build.`,
      `{"payload": "${enc}"}`,
    ]);
    return { text, secret, core: secret };
  },
  hex: (t, k) => {
    const line = rnd() < 0.6 ? `${k}=${t}` : t;
    const enc = hexOf(line);
    const start = Buffer.byteLength(line.slice(0, line.length - t.length));
    const secret = enc.slice(start * 2, (start + Buffer.byteLength(t)) * 2);
    const text = pick([
      `SECRET_HEX=${enc}`,
      `xxd -r -p <<< ${enc} > creds.env`,
      `The blob stored in the settings table is ${enc}.`,
      `payload: "${enc}"`,
    ]);
    return { text, secret, core: secret };
  },
  bidi: (t, k) => {
    const s = insertAt(t, midPoint(t), pick(BIDI));
    return { text: placeDisguised(k, s), secret: s };
  },
  'math-alphanumeric': (t, k) => {
    const s = mathBold(t);
    return { text: placeDisguised(k, s), secret: s };
  },
};
const MAIN_DISGUISES = [
  'wrapped',
  'zero-width',
  'soft-hyphen',
  'fullwidth',
  'html-entity',
  'url-escape',
  'json-escape',
  'base64',
  'hex',
];

function disguiseItems(perKind: number, extraPerKind: number): void {
  for (const name of Object.keys(DISGUISES)) {
    const n = MAIN_DISGUISES.includes(name) ? perKind : extraPerKind;
    for (let i = 0; i < n; i++) {
      const { token, core: tokenCore, provider, key } = disguiseToken();
      const { text, secret, core } = DISGUISES[name]!(token, key);
      add({ text, secret, kind: `disguise-${name}`, provider, plain: token, core: core ?? tokenCore });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Negatives

function nearMissItems(n: number): void {
  const makers: (() => string)[] = [
    // wrong length
    () => `ghp_${mixed(B62, int(20, 30))}`,
    () => `glpat-${mixed(B64URL, int(8, 14))}`,
    () => `AKIA${chars(B32, int(8, 12))}`,
    () => `AIza${mixed(B64URL, int(15, 25))}`,
    () => `npm_${mixed(B62, int(12, 24))}`,
    () => `hf_${chars(LETTERS, int(8, 20))}`,
    () => `dop_v1_${mixed(HEX, int(20, 40))}`,
    () => `lin_api_${mixed(B62, int(8, 16))}`,
    () => `dckr_pat_${mixed(B64URL, int(6, 12))}`,
    () => `shpat_${mixed(HEX, int(10, 20))}`,
    () => `xoxb-${digits(6)}`,
    () => `sk_live_${mixed(B62, int(4, 10))}`,
    // wrong prefix
    () => `ghx_${mixed(B62, 36)}`,
    () => `gph_${mixed(B62, 36)}`,
    () => `AKIB${chars(B32, 16)}`,
    () => `xoxz-${digits(11)}-${digits(12)}-${mixed(B62, 24)}`,
    () => `sk_lvie_${mixed(B62, 24)}`,
    () => `npmx_${mixed(B62, 36)}`,
    () => `glpot-${mixed(B64URL, 20)}`,
    () => `dop_v9_${mixed(HEX, 64)}`,
    () => `lin_app_${mixed(B62, 40)}`,
    () => `SG-${mixed(B64URL, 22)}-${mixed(B64URL, 43)}`,
    // wrong alphabet
    () => `AKIA${chars(LOWER, 16)}`,
    () => `dop_v1_${chars('ghijklmnopqrstuvwxyz', 64)}`,
    () => `shpat_${chars('ghijklmnopqrstuvwxyz', 32)}`,
    () => `AGE-SECRET-KEY-1${chars('BIO', 58)}`,
    () => `dapi${chars('ghijklmnopqrstuvwxyz', 32)}`,
  ];
  const contexts: ((v: string) => string)[] = [
    (v) => `ref: ${v}`,
    (v) => `The lookup table maps ${v} to the legacy importer.`,
    (v) => `label=${v}`,
    (v) => `Build artefact ${v} was uploaded to the cache.`,
    (v) => `| ${v} | renamed in v3 |`,
    (v) => `test fixture name: ${v}`,
    (v) => `cache key ${v} (safe to delete)`,
    (v) => `"id": "${v}"`,
  ];
  for (let i = 0; i < n; i++) {
    add({ text: pickOwn(contexts)(makers[i % makers.length]!()), secret: null, kind: 'near-miss' });
  }
}

const PLACEHOLDERS = [
  '<password>',
  'changeme',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder as people write it
  '${DB_PASSWORD}',
  'xxx',
  'xxxxxxxx',
  '********',
  'your-api-key',
  '<your-token-here>',
  'REPLACE_ME',
  'TODO',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder as people write it
  '${{ secrets.GITHUB_TOKEN }}',
  '{{ .Values.db.password }}',
  '%env(DATABASE_PASSWORD)%',
  '$(cat /run/secrets/db_password)',
  'op://Engineering/staging-db/password',
  '[secret:github-token]',
  'null',
  '""',
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'sk_live_...',
  'YOUR_API_KEY',
  '<redacted>',
  'dummy',
  'password',
  'secret',
  'example-token',
  'test',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder as people write it
  '${API_TOKEN:?}',
  'process.env.STRIPE_KEY',
  'vault:secret/data/ci#token',
  '[REDACTED]',
  'xoxb-your-bot-token',
  '<TOKEN>',
  'sk-ant-api03-...',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder as people write it
  '${env:OPENAI_API_KEY}',
  'ENV["API_KEY"]',
  '__PASSWORD__',
];
const PLACEHOLDER_LINES: ((k: string, v: string) => string)[] = [
  (k, v) => `${k}=${v}`,
  (k, v) => `${lowerKey(k)}: ${v}`,
  (k, v) => `"${camelKey(k)}": "${v}"`,
  (k, v) => `Set ${k} to ${v} in your local .env before running the seed script.`,
  (k, v) => `export ${k}=${v}`,
  (k, v) => `In the example config, ${lowerKey(k)} is ${v} — replace it with your own.`,
  (k, v) => `  ${lowerKey(k)} = ${v}`,
  (k, v) => `The docs use ${v} as the ${lowerKey(k).replace(/_/g, ' ')}; the real one comes from the vault.`,
];
function placeholderItems(n: number): void {
  for (let i = 0; i < n; i++) {
    const v = PLACEHOLDERS[i % PLACEHOLDERS.length]!;
    const k = pick([
      'DB_PASSWORD',
      'API_KEY',
      'GITHUB_TOKEN',
      'password',
      'client_secret',
      'AWS_SECRET_ACCESS_KEY',
      'token',
    ]);
    add({ text: pickOwn(PLACEHOLDER_LINES)(k, v), secret: null, kind: 'placeholder' });
  }
}

const PROSE_SAMPLES = [
  'The release checklist lives in the wiki and is reviewed every sprint.',
  'Run the linter before pushing; CI rejects unformatted files.',
  'We moved the queue workers to the new cluster last week.',
  'Integration tests need Docker and about four gigabytes of memory.',
  'Ask in the platform channel before changing shared Terraform modules.',
];

function uuid(): string {
  const h = chars(HEX, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${pick(['8', '9', 'a', 'b'])}${h.slice(17, 20)}-${h.slice(20)}`;
}

/** `prose` replaces the samples base64 is taken of (the train-only additions use their own). */
function highEntropyItems(n: number, prose: readonly string[] = PROSE_SAMPLES): void {
  const makers: (() => string)[] = [
    () => `Fixed in ${chars(HEX, 40)}; the regression came from the parser rewrite.`,
    () => `git cherry-pick ${chars(HEX, 40)}`,
    () => `blob ${chars(HEX, 40)}\t${pick(['src/index.ts', 'README.md', 'package.json'])}`,
    () => `Revert "${pick(['bump deps', 'tune cache'])}" (reverts commit ${chars(HEX, 40)}).`,
    () => `request_id=${uuid()} status=200 duration_ms=${int(3, 900)}`,
    () => `"id": "${uuid()}",`,
    () => `"integrity": "sha512-${chars(B64, 86)}=="`,
    () =>
      `<script src="https://cdn.example.com/lib.min.js" integrity="sha384-${chars(B64, 64)}" crossorigin="anonymous"></script>`,
    () =>
      `github.com/${pick(['pkg/errors', 'spf13/cobra', 'google/uuid'])} v${int(0, 1)}.${int(1, 9)}.${int(0, 9)} h1:${chars(B64, 43)}=`,
    () => `image: ghcr.io/acme/api@sha256:${chars(HEX, 64)}`,
    () => `checksum = "${chars(HEX, 64)}"`,
    () => `The base64 of the sample payload is ${b64(pick(prose))}`,
    () => `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${chars(B64, int(60, 140))}=`,
    () =>
      `!function(e,t){"use strict";var n=e.${chars(LOWER, 2)}||{},r="${chars(B62, 12)}";function o(e){return n[e]||(n[e]=t(e,r))}e.${chars(LOWER, 3)}=o}(window,function(a,b){return a+b});`,
    () =>
      `.css-${chars(LOWER + DIGITS, 7)}{display:flex;gap:8px}.css-${chars(LOWER + DIGITS, 6)}:hover{color:#${chars(HEX, 6)}}`,
    () => `<div class="sc-${chars(LETTERS, 6)} ${chars(LETTERS, 6)}">`,
    () =>
      `dist/assets/index-${chars(B64URL, 8)}.js  ${int(40, 400)}.${int(10, 99)} kB │ gzip: ${int(10, 90)}.${int(10, 99)} kB`,
    () => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${chars(B64, 43)} ${pick(['dana@laptop', 'deploy@ci', 'ops'])}`,
    () =>
      `-----BEGIN CERTIFICATE-----\nMIID${chars(B64, 60)}\n${chars(B64, 64)}\n${chars(B64, 40)}==\n-----END CERTIFICATE-----`,
    () =>
      `-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE${chars(B64, 28)}\n${chars(B64, 56)}==\n-----END PUBLIC KEY-----`,
    () => `STRIPE_PUBLISHABLE_KEY=pk_live_${mixed(B62, 24)}`,
    () => `SENTRY_DSN=https://${chars(HEX, 32)}@o${digits(6)}.ingest.sentry.io/${digits(7)}`,
    () =>
      `mapboxgl.accessToken = 'pk.${b64url(`{"u":"fleetmaps","a":"${chars(LOWER + DIGITS, 25)}"}`)}.${chars(B64URL, 22)}';`,
    () => `<div class="g-recaptcha" data-sitekey="6L${chars(B64URL, 38)}"></div>`,
    () => `customer ${`cus_${chars(B62, 14)}`} has an open invoice ${`in_${chars(B62, 24)}`}`,
    () => `arn:aws:iam::${digits(12)}:role/${pick(['ci-deployer', 'reader', 'lambda-exec'])}`,
    () => `Instance ${`i-0${chars(HEX, 16)}`} in ${`subnet-0${chars(HEX, 16)}`} failed its health check.`,
    () => `ObjectId("${chars(HEX, 24)}")`,
    () => `pod/web-${chars(HEX.slice(0, 10) + 'bcdfghjklmnpqrstvwxz', 10)}-${chars(LOWER + DIGITS, 5)} 1/1 Running`,
    () => `db_password: ENC[AES256_GCM,data:${chars(B64, 24)},iv:${chars(B64, 43)}=,tag:${chars(B64, 22)}==,type:str]`,
    () => `$ANSIBLE_VAULT;1.1;AES256\n${chars(HEX, 80)}\n${chars(HEX, 80)}\n${chars(HEX, 40)}`,
    () => `encryptedData:\n  password: AgB${chars(B64, 200)}==`,
    () => `/nix/store/${chars('0123456789abcdfghijklmnpqrsvwxyz', 32)}-${pick(['nodejs-20.11.1', 'openssl-3.0.13'])}`,
    () =>
      `"resolved": "https://registry.npmjs.org/${pick(['lodash', 'react', 'zod'])}/-/${pick(['lodash', 'react', 'zod'])}-${int(1, 18)}.${int(0, 9)}.${int(0, 9)}.tgz"`,
    () => `Trace ${chars(HEX, 32)} span ${chars(HEX, 16)} took ${int(2, 400)} ms`,
    () => `GPG key fingerprint ${chars(HEX.toUpperCase(), 40)}`,
    () => `ulid: 01${chars('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24)}`,
    () => `"etag": "W/\\"${chars(HEX, 32)}\\""`,
    () => `content-security-policy: script-src 'sha256-${chars(B64, 43)}='`,
    () => `Merge pull request #${int(100, 9999)} from acme/${pick(['fix-cache', 'feat-export'])} (${chars(HEX, 7)})`,
  ];
  for (let i = 0; i < n; i++) {
    add({ text: makers[i % makers.length]!(), secret: null, kind: 'high-entropy-nonsecret' });
  }
}

// Ordinary lines and sentences about passwords and tokens that hold no value (split between test and train).
const ORDINARY = [
  'Rotate the database password every 90 days; the runbook has the steps.',
  'password_min_length: 12',
  'The password is stored in Vault under kv/staging/db, never in the repo.',
  'token_ttl_seconds: 3600',
  'Tokens are cached for ten minutes, so a revoked one keeps working briefly.',
  'secret_name: db-credentials',
  'The token is injected by CI at build time; locally you run `make login`.',
  'auth_method: password',
  'Never paste secrets into memory notes or issue comments.',
  'token_url: https://oauth2.googleapis.com/token',
  'If the token expires, run `gh auth refresh` and retry.',
  'PASSWORD_HASHER=argon2id',
  'The secret is rotated automatically by the operator every week.',
  'valueFrom:\n  secretKeyRef:\n    name: db\n    key: password',
  'Ask Dana for the staging password; it is in the team password manager.',
  'const password = process.env.DB_PASSWORD;',
  'def check_password(candidate: str, stored_hash: bytes) -> bool:',
  'if (!token) throw new Error("missing token: set GITHUB_TOKEN");',
  'The API key is passed in the X-Api-Key header, not as a query parameter.',
  'password = getpass.getpass("Database password: ")',
  'Secrets go in the CI variables page, marked protected and masked.',
  'require_password_change_on_first_login: true',
  'The token endpoint returns 400 when the refresh token was already used.',
  'hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12))',
  'Our passwords policy follows NIST 800-63B: length over complexity.',
  'session_secret_env: SESSION_SECRET',
  'The password field on the signup form must not autocomplete.',
  'token = request.headers.get("Authorization", "").removeprefix("Bearer ")',
  'We stopped using the shared secret once mTLS was set up between the services.',
  'api_key_header: X-API-Key',
  'The password reset email goes out through SES with a one-hour link.',
  'Credentials for local development come from `docker compose up` defaults.',
  'Use `op read` to fetch the token at runtime instead of copying it.',
  'secret: true  # mark the variable as masked in CI',
  'The word "password" in the logs is a field name; the value is never logged.',
  'max_token_length: 4096',
  'Service accounts authenticate with workload identity, no keys.',
  'The secret scanner in CI fails the build on any finding.',
  'Remember to revoke the old token after the new one works.',
  'password_file: /run/secrets/db_password',
  'For the build box, ask the infra team; the password is not shared in chat.',
  'The token you need is the one labelled "deploy (read-only)" in 1Password.',
  'Use the token from the team vault for staging, not your personal one.',
  'log_level: debug\nretries: 3\ntimeout_ms: 5000',
  'port: 5432\nhost: db.internal\nuser: app\nsslmode: require',
  'Our access tokens are opaque strings; do not parse them.',
  'The keystore password prompt appears only on the first build.',
  'jwt_algorithm: RS256\njwt_issuer: https://auth.acme.example',
];
function ordinaryItems(): void {
  for (const text of own(ORDINARY)) add({ text, secret: null, kind: 'prose-no-value' });
}

// ---------------------------------------------------------------------------------------------
// Train-only additions, written after the test split was frozen: more phrasings to tune on. They run
// after everything else, so the test split (and the train items above) come out unchanged.

const TRAIN_PROSE = [
  (v: string) => `Staging admin login: the password is ${v} until we switch to SSO.`,
  (v: string) => `FYI the new deploy key passphrase is ${v}`,
  (v: string) => `The SFTP account for the bank export uses ${v} as its password.`,
  (v: string) => `We share one API token for the map tiles: ${v}.`,
  (v: string) => `Password for the demo laptop: ${v} (the sticker on it is out of date).`,
  (v: string) => `In case you need it, the root password of the staging VM is ${v}.`,
  (v: string) => `The secret for signing preview URLs is ${v}, same value in both regions.`,
  (v: string) => `Log into the router with admin and ${v}.`,
  (v: string) => `The OAuth client secret for the internal tool is ${v}.`,
  (v: string) => `Sandbox credentials are qa-bot / ${v}.`,
  (v: string) => `The app password for the shared mailbox is ${v}; it bypasses MFA so treat it carefully.`,
  (v: string) => `Encryption key for the exports bucket: ${v}`,
  (v: string) => `the db pw is ${v}, ask before using it on prod`,
  (v: string) => `We unlocked the old keystore with ${v} as the passphrase.`,
  (v: string) => `The token we gave the contractor was ${v}; revoke it when they leave.`,
  (v: string) => `Das Admin-Kennwort lautet ${v}.`,
  (v: string) => `La contraseña del servidor de pruebas es ${v}.`,
  (v: string) => `ビルドサーバーのトークンは ${v} です。`,
];
const TRAIN_TOKEN_SENTENCES = [
  (t: string, n: string) => `The ${n} credential in the shared vault entry is ${t}.`,
  (t: string, n: string) => `Paste ${t} into the ${n} settings page if the sync stops.`,
  (t: string, _n: string) => `Old key (still active until Monday): ${t}`,
  (t: string, n: string) => `For local testing against ${n}, export ${t} as the token.`,
  (t: string, _n: string) => `The integration broke because ${t} was revoked by mistake.`,
  (t: string, n: string) => `${n} token → ${t}`,
];
const TRAIN_ORDINARY = [
  'The password policy requires 14 characters and no reuse of the last 5.',
  'api_key_rotation_days: 90',
  'Tokens issued by the auth service are JWTs signed with RS256; the public keys are at /.well-known/jwks.json.',
  'SECRET_BACKEND=aws-secrets-manager',
  'Do not log the Authorization header; the middleware strips it.',
  'The password hash column uses argon2id with the library defaults.',
  'token_cache_size: 512',
  'Passwords are never emailed; the reset flow sends a one-time link.',
  'credentials_source: instance-metadata',
  'Secrets are mounted at /run/secrets and read once at start.',
  'The secret key base is generated per environment by the deploy tool.',
  'A token of the wrong audience returns 403, not 401.',
  'password_reset_ttl: 1h',
  'When the API key is missing, the client throws MissingApiKeyError.',
  'The login form has a "show password" toggle; keep it accessible.',
  'auth:\n  provider: oidc\n  issuer: https://login.acme.example\n  client_id: web-frontend',
  'export GOFLAGS=-mod=readonly',
  'CACHE_TTL_SECONDS=300\nFEATURE_NEW_CHECKOUT=true',
  'const apiKey = config.get("payments.apiKey");',
  'if password != confirm: raise ValueError("passwords do not match")',
];
const TRAIN_PLACEHOLDER_LINES = [
  (k: string, v: string) => `# ${k}=${v}  (fill in locally)`,
  (k: string, v: string) => `${k.toUpperCase()}: "${v}"  # set by the deploy tool`,
  (k: string, v: string) => `Example: \`${k}=${v} npm start\``,
  (k: string, v: string) => `<${lowerKey(k)}>${v}</${lowerKey(k)}>`,
];

const TRAIN_PROSE_SAMPLES = [
  'Reviewers should check the migration plan before approving schema changes.',
  'The demo data is regenerated every Monday morning.',
  'Please keep the changelog entries short and user-facing.',
  'Nightly builds are published to the beta channel only.',
  'The mobile release train leaves every second Thursday.',
  'Use the staging tenant for anything that sends real emails.',
];

function trainExtras(): void {
  for (let i = 0; i < 36; i++) {
    const v = password();
    add({ text: pick(TRAIN_PROSE)(v), secret: v, kind: 'prose' });
  }
  const withPrefix = PROVIDERS.filter(
    (p) => !CONTEXT_ONLY.has(p.id) && p.id !== 'slack-webhook' && p.id !== 'discord-webhook',
  );
  for (let i = 0; i < 30; i++) {
    const p = pick(withPrefix);
    const { token, core } = p.make();
    add({
      text: pick(TRAIN_TOKEN_SENTENCES)(token, p.name),
      secret: token,
      kind: 'provider-token',
      provider: p.id,
      core,
    });
  }
  disguiseItems(4, 2);
  for (const text of TRAIN_ORDINARY) add({ text, secret: null, kind: 'prose-no-value' });
  for (let i = 0; i < 24; i++) {
    const v = PLACEHOLDERS[(i * 7) % PLACEHOLDERS.length]!;
    const k = pick(['DB_PASSWORD', 'API_KEY', 'SLACK_TOKEN', 'client_secret', 'STRIPE_SECRET_KEY']);
    add({ text: pick(TRAIN_PLACEHOLDER_LINES)(k, v), secret: null, kind: 'placeholder' });
  }
  nearMissItems(20);
  highEntropyItems(30, TRAIN_PROSE_SAMPLES);
}

// ---------------------------------------------------------------------------------------------

export function generate(which: Split): SecretItem[] {
  split = which;
  rnd = mulberry32(which === 'test' ? 0x5ec7e57 : 0x7a1a5e7);
  counter = 0;
  items.length = 0;
  const test = which === 'test';
  providerTokenItems(test ? 4 : 3);
  contextProviderItems(test ? 24 : 16);
  keywordItems(test ? 64 : 44);
  weakItems(test ? 6 : 4);
  proseItems(test ? 44 : 30);
  dsnItems(test ? 30 : 20);
  privateKeyItems(test ? 16 : 10);
  disguiseItems(test ? 12 : 8, test ? 5 : 3);
  nearMissItems(test ? 90 : 60);
  placeholderItems(test ? 82 : 55);
  highEntropyItems(test ? 100 : 70);
  ordinaryItems();
  if (!test) trainExtras();
  return [...items];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const which = process.argv[2];
  if (which !== 'test' && which !== 'train') {
    process.stderr.write('usage: generate.ts test|train\n');
    process.exit(2);
  }
  const out = generate(which);
  const file = join(dirname(fileURLToPath(import.meta.url)), `${which}.jsonl`);
  writeFileSync(file, out.map((i) => JSON.stringify(i)).join('\n') + '\n');
  const pos = out.filter((i) => i.secret !== null).length;
  process.stdout.write(`${file}: ${out.length} items, ${pos} positives, ${out.length - pos} negatives\n`);
}
