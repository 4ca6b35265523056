// Writes the blind secret-lint splits holdout-2 and train-2:
//   node --import tsx test/corpus/secrets/generate-blind.ts holdout-2|train-2
// Written without reading the secret-lint rules, their tests or the other generator. Token shapes follow
// each provider's own documentation of its format; bodies are random characters of the documented
// alphabet and length (checksums inside tokens are not computed). Every sentence and line format below
// belongs to exactly one split: `H` pools are holdout-2's, `T` pools are train-2's.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SecretCorpusItem as Row } from '../../support/lint-corpus.js';
import { seededRandom } from '../../support/seeded-random.js';

type Split = 'holdout-2' | 'train-2';

// ---------------------------------------------------------------- seeded randomness (mulberry32)
let rnd: () => number = seededRandom(1);
const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIG = '0123456789';
const AN = UPPER + LOWER + DIG;
const HEX = '0123456789abcdef';
const HEXU = '0123456789ABCDEF';
const B64 = AN + '+/';
const B64U = AN + '_-';
const UPN = UPPER + DIG;
const LOWN = LOWER + DIG;
const B32 = UPPER + '234567';
const BECH = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
const PWCH = AN + '!#%^*-_+=.~';
const URLPW = AN + '-_.~!*';

function rs(alpha: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alpha[Math.floor(rnd() * alpha.length)];
  return s;
}
// A random string that mixes classes, so that it does not read as a word by accident.
function mixed(alpha: string, n: number): string {
  for (;;) {
    const s = rs(alpha, n);
    if (/[A-Z]/.test(s) === /[A-Z]/.test(alpha) && /[0-9]/.test(s) === /[0-9]/.test(alpha)) return s;
  }
}
const uuid = (): string =>
  `${rs(HEX, 8)}-${rs(HEX, 4)}-4${rs(HEX, 3)}-${pick(['8', '9', 'a', 'b'])}${rs(HEX, 3)}-${rs(HEX, 12)}`;
const digits = (n: number): string => String(int(1, 9)) + rs(DIG, n - 1);
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

// ---------------------------------------------------------------- providers
interface Tok {
  token: string;
  core: string;
}
interface Provider {
  id: string;
  name: string;
  env: string[];
  header?: (t: string) => string;
  gen: () => Tok;
  strong: boolean; // the token is recognisable without its variable name
}
const pre = (prefix: string, body: string): Tok => ({ token: prefix + body, core: body });
const bare = (token: string): Tok => ({ token, core: token });
function P(
  id: string,
  name: string,
  env: string[],
  gen: () => Tok,
  strong = true,
  header?: (t: string) => string,
): Provider {
  return header ? { id, name, env, gen, strong, header } : { id, name, env, gen, strong };
}
const bearer = (t: string): string => `Authorization: Bearer ${t}`;

const PROVIDERS: Provider[] = [
  P('aws-access-key-id', 'AWS', ['AWS_ACCESS_KEY_ID'], () => pre('AKIA', rs(B32, 16))),
  P('aws-temporary-key-id', 'AWS STS', ['AWS_ACCESS_KEY_ID'], () => pre('ASIA', rs(B32, 16))),
  P(
    'aws-secret-access-key',
    'AWS',
    ['AWS_SECRET_ACCESS_KEY', 'aws_secret_access_key'],
    () => bare(mixed(B64, 40)),
    false,
  ),
  P('github-classic-pat', 'GitHub', ['GITHUB_TOKEN', 'GH_TOKEN'], () => pre('ghp_', rs(AN, 36))),
  P('github-oauth', 'GitHub OAuth', ['GITHUB_OAUTH_TOKEN'], () => pre('gho_', rs(AN, 36))),
  P('github-user-to-server', 'GitHub App user', ['GH_USER_TOKEN'], () => pre('ghu_', rs(AN, 36))),
  P('github-server-to-server', 'GitHub App installation', ['GH_INSTALLATION_TOKEN'], () => pre('ghs_', rs(AN, 36))),
  P('github-refresh', 'GitHub App refresh', ['GH_REFRESH_TOKEN'], () => pre('ghr_', rs(AN, 36))),
  P('github-fine-grained-pat', 'GitHub', ['GITHUB_PAT'], () => pre('github_pat_', `11${rs(UPN, 20)}_${rs(AN, 59)}`)),
  P(
    'gitlab-pat',
    'GitLab',
    ['GITLAB_TOKEN', 'CI_JOB_PAT'],
    () => pre('glpat-', rs(B64U, 20)),
    true,
    (t) => `PRIVATE-TOKEN: ${t}`,
  ),
  P('gitlab-runner', 'GitLab runner', ['RUNNER_TOKEN'], () => pre('glrt-', rs(B64U, 20))),
  P('gitlab-deploy', 'GitLab deploy token', ['GITLAB_DEPLOY_TOKEN'], () => pre('gldt-', rs(B64U, 20))),
  P('gitlab-trigger', 'GitLab pipeline trigger', ['TRIGGER_TOKEN'], () => pre('glptt-', rs(HEX, 40))),
  P('slack-bot', 'Slack', ['SLACK_BOT_TOKEN'], () => pre('xoxb-', `${digits(12)}-${digits(13)}-${rs(AN, 24)}`)),
  P('slack-user', 'Slack', ['SLACK_USER_TOKEN'], () =>
    pre('xoxp-', `${digits(12)}-${digits(12)}-${digits(13)}-${rs(HEX, 32)}`),
  ),
  P('slack-app', 'Slack app-level', ['SLACK_APP_TOKEN'], () =>
    pre('xapp-', `1-A${rs(UPN, 10)}-${digits(13)}-${rs(HEX, 64)}`),
  ),
  P('stripe-secret', 'Stripe', ['STRIPE_SECRET_KEY', 'STRIPE_API_KEY'], () => pre('sk_live_', rs(AN, pick([24, 99])))),
  P('stripe-restricted', 'Stripe restricted', ['STRIPE_RESTRICTED_KEY'], () => pre('rk_live_', rs(AN, pick([24, 99])))),
  P('stripe-webhook-secret', 'Stripe webhook', ['STRIPE_WEBHOOK_SECRET'], () => pre('whsec_', rs(AN, 32))),
  P('openai-legacy', 'OpenAI', ['OPENAI_API_KEY'], () => pre('sk-', `${rs(AN, 20)}T3BlbkFJ${rs(AN, 20)}`)),
  P('openai-project', 'OpenAI', ['OPENAI_API_KEY'], () => pre('sk-proj-', `${rs(B64U, 74)}T3BlbkFJ${rs(B64U, 74)}`)),
  P(
    'anthropic',
    'Anthropic',
    ['ANTHROPIC_API_KEY'],
    () => pre('sk-ant-api03-', `${rs(B64U, 93)}AA`),
    true,
    (t) => `x-api-key: ${t}`,
  ),
  P(
    'anthropic-admin',
    'Anthropic admin',
    ['ANTHROPIC_ADMIN_KEY'],
    () => pre('sk-ant-admin01-', `${rs(B64U, 93)}AA`),
    true,
    (t) => `x-api-key: ${t}`,
  ),
  P(
    'google-api-key',
    'Google Cloud',
    ['GOOGLE_API_KEY', 'GEMINI_API_KEY'],
    () => pre('AIza', rs(B64U, 35)),
    true,
    (t) => `x-goog-api-key: ${t}`,
  ),
  P('google-oauth-client-secret', 'Google OAuth', ['GOOGLE_CLIENT_SECRET'], () => pre('GOCSPX-', rs(B64U, 28))),
  P('google-oauth-access', 'Google OAuth access', ['GOOGLE_ACCESS_TOKEN'], () => pre('ya29.', `a0${rs(B64U, 150)}`)),
  P('google-refresh', 'Google OAuth refresh', ['GOOGLE_REFRESH_TOKEN'], () =>
    pre('1//0', `${rs(B64U, 2)}-${rs(B64U, 95)}`),
  ),
  P('azure-storage-key', 'Azure Storage', ['AZURE_STORAGE_KEY'], () => bare(`${mixed(B64, 86)}==`), false),
  P('azure-ad-client-secret', 'Azure AD', ['AZURE_CLIENT_SECRET'], () => bare(`${rs(AN, 3)}8Q~${rs(AN + '_~.-', 31)}`)),
  P('npm', 'npm', ['NPM_TOKEN', 'NODE_AUTH_TOKEN'], () => pre('npm_', rs(AN, 36))),
  P('pypi', 'PyPI', ['PYPI_TOKEN', 'TWINE_PASSWORD'], () => pre('pypi-', `AgEIcHlwaS5vcmc${rs(B64U, 120)}`)),
  P('rubygems', 'RubyGems', ['GEM_HOST_API_KEY'], () => pre('rubygems_', rs(HEX, 48))),
  P('nuget', 'NuGet', ['NUGET_API_KEY'], () => pre('oy2', rs(LOWN, 43))),
  P('docker-hub-pat', 'Docker Hub', ['DOCKERHUB_TOKEN'], () => pre('dckr_pat_', rs(B64U, 27))),
  P('huggingface', 'Hugging Face', ['HF_TOKEN'], () => pre('hf_', rs(UPPER + LOWER, 34))),
  P('twilio-api-key', 'Twilio API key', ['TWILIO_API_KEY'], () => pre('SK', rs(HEX, 32))),
  P('twilio-auth-token', 'Twilio', ['TWILIO_AUTH_TOKEN'], () => bare(rs(HEX, 32)), false),
  P('sendgrid', 'SendGrid', ['SENDGRID_API_KEY'], () => pre('SG.', `${rs(B64U, 22)}.${rs(B64U, 43)}`)),
  P('mailgun', 'Mailgun', ['MAILGUN_API_KEY'], () => pre('key-', rs(HEX, 32))),
  P('mailchimp', 'Mailchimp', ['MAILCHIMP_API_KEY'], () => bare(`${rs(HEX, 32)}-us${int(1, 21)}`)),
  P(
    'brevo',
    'Brevo',
    ['BREVO_API_KEY'],
    () => pre('xkeysib-', `${rs(HEX, 64)}-${rs(AN, 16)}`),
    true,
    (t) => `api-key: ${t}`,
  ),
  P('resend', 'Resend', ['RESEND_API_KEY'], () => pre('re_', `${rs(AN, 8)}_${rs(AN, 24)}`)),
  P(
    'postmark',
    'Postmark',
    ['POSTMARK_SERVER_TOKEN'],
    () => bare(uuid()),
    false,
    (t) => `X-Postmark-Server-Token: ${t}`,
  ),
  P(
    'shopify-admin',
    'Shopify',
    ['SHOPIFY_ACCESS_TOKEN'],
    () => pre('shpat_', rs(HEX, 32)),
    true,
    (t) => `X-Shopify-Access-Token: ${t}`,
  ),
  P('shopify-shared-secret', 'Shopify app', ['SHOPIFY_API_SECRET'], () => pre('shpss_', rs(HEX, 32))),
  P('square-access', 'Square', ['SQUARE_ACCESS_TOKEN'], () => pre('EAAA', rs(B64U, 60))),
  P('square-oauth-secret', 'Square OAuth', ['SQUARE_APP_SECRET'], () => pre('sq0csp-', rs(B64U, 43))),
  P('braintree', 'PayPal Braintree', ['BRAINTREE_ACCESS_TOKEN'], () =>
    pre('access_token$production$', `${rs(LOWN, 16)}$${rs(HEX, 32)}`),
  ),
  P(
    'discord-bot',
    'Discord',
    ['DISCORD_BOT_TOKEN'],
    () => bare(`${pick(['M', 'N'])}${rs(AN, 23)}.${rs(B64U, 6)}.${rs(B64U, 27)}`),
    true,
    (t) => `Authorization: Bot ${t}`,
  ),
  P('telegram-bot', 'Telegram', ['TELEGRAM_BOT_TOKEN'], () => bare(`${digits(10)}:AA${rs(B64U, 33)}`)),
  P('digitalocean-pat', 'DigitalOcean', ['DIGITALOCEAN_TOKEN'], () => pre('dop_v1_', rs(HEX, 64))),
  P('digitalocean-oauth', 'DigitalOcean OAuth', ['DO_OAUTH_TOKEN'], () => pre('doo_v1_', rs(HEX, 64))),
  P('heroku', 'Heroku', ['HEROKU_API_KEY'], () => pre('HRKU-AA', rs(B64U, 58))),
  P('netlify', 'Netlify', ['NETLIFY_AUTH_TOKEN'], () => pre('nfp_', rs(AN, 36))),
  P(
    'flyio',
    'Fly.io',
    ['FLY_API_TOKEN'],
    () => pre('FlyV1 fm2_', rs(B64, 180)),
    true,
    (t) => `Authorization: ${t}`,
  ),
  P('cloudflare-api-token', 'Cloudflare', ['CLOUDFLARE_API_TOKEN'], () => bare(mixed(B64U, 40)), false),
  P(
    'cloudflare-global-key',
    'Cloudflare global',
    ['CLOUDFLARE_API_KEY'],
    () => bare(rs(HEX, 37)),
    false,
    (t) => `X-Auth-Key: ${t}`,
  ),
  P(
    'datadog-api',
    'Datadog',
    ['DD_API_KEY', 'DATADOG_API_KEY'],
    () => bare(rs(HEX, 32)),
    false,
    (t) => `DD-API-KEY: ${t}`,
  ),
  P(
    'datadog-app',
    'Datadog application',
    ['DD_APP_KEY'],
    () => bare(rs(HEX, 40)),
    false,
    (t) => `DD-APPLICATION-KEY: ${t}`,
  ),
  P(
    'newrelic-user',
    'New Relic',
    ['NEW_RELIC_API_KEY'],
    () => pre('NRAK-', rs(UPN, 27)),
    true,
    (t) => `Api-Key: ${t}`,
  ),
  P('newrelic-license', 'New Relic ingest', ['NEW_RELIC_LICENSE_KEY'], () => bare(`${rs(HEX, 36)}NRAL`)),
  P('sentry-org-token', 'Sentry', ['SENTRY_AUTH_TOKEN'], () =>
    pre('sntrys_', `eyJpYXQiO${rs(B64, 120)}_${rs(B64U, 43)}`),
  ),
  P('sentry-user-token', 'Sentry', ['SENTRY_AUTH_TOKEN'], () => pre('sntryu_', rs(HEX, 64))),
  P('grafana-service-account', 'Grafana', ['GRAFANA_TOKEN'], () => pre('glsa_', `${rs(AN, 32)}_${rs(HEX, 8)}`)),
  P('grafana-cloud', 'Grafana Cloud', ['GRAFANA_CLOUD_TOKEN'], () => pre('glc_', `eyJvIjoi${rs(B64, 100)}`)),
  P('planetscale-token', 'PlanetScale', ['PLANETSCALE_SERVICE_TOKEN'], () => pre('pscale_tkn_', rs(B64U, 43))),
  P('planetscale-password', 'PlanetScale', ['DATABASE_PASSWORD'], () => pre('pscale_pw_', rs(B64U, 43))),
  P('supabase-access', 'Supabase', ['SUPABASE_ACCESS_TOKEN'], () => pre('sbp_', rs(HEX, 40))),
  P('supabase-secret', 'Supabase', ['SUPABASE_SECRET_KEY'], () => pre('sb_secret_', rs(B64U, 32))),
  P('neon', 'Neon', ['NEON_API_KEY'], () => pre('napi_', rs(LOWN, 64))),
  P('doppler', 'Doppler', ['DOPPLER_TOKEN'], () => pre(pick(['dp.pt.', 'dp.st.', 'dp.sa.']), rs(AN, 43))),
  P(
    'vault-service',
    'HashiCorp Vault',
    ['VAULT_TOKEN'],
    () => pre('hvs.', rs(B64U, 92)),
    true,
    (t) => `X-Vault-Token: ${t}`,
  ),
  P('terraform-cloud', 'Terraform Cloud', ['TFE_TOKEN', 'TF_TOKEN_app_terraform_io'], () =>
    bare(`${rs(AN, 14)}.atlasv1.${rs(AN, 67)}`),
  ),
  P('pulumi', 'Pulumi', ['PULUMI_ACCESS_TOKEN'], () => pre('pul-', rs(HEX, 40))),
  P(
    'linear',
    'Linear',
    ['LINEAR_API_KEY'],
    () => pre('lin_api_', rs(AN, 40)),
    true,
    (t) => `Authorization: ${t}`,
  ),
  P('notion', 'Notion', ['NOTION_TOKEN'], () => pre('ntn_', rs(AN, 46))),
  P('atlassian', 'Atlassian', ['JIRA_API_TOKEN', 'CONFLUENCE_TOKEN'], () =>
    pre('ATATT3xFfGF0', `${rs(B64U, 170)}=${rs(HEXU, 8)}`),
  ),
  P('asana', 'Asana', ['ASANA_PAT'], () => bare(`2/${digits(16)}/${digits(16)}:${rs(HEX, 32)}`)),
  P(
    'figma',
    'Figma',
    ['FIGMA_TOKEN'],
    () => pre('figd_', rs(B64U, 40)),
    true,
    (t) => `X-Figma-Token: ${t}`,
  ),
  P('airtable', 'Airtable', ['AIRTABLE_PAT'], () => pre('pat', `${rs(AN, 14)}.${rs(HEX, 64)}`)),
  P(
    'okta',
    'Okta',
    ['OKTA_API_TOKEN'],
    () => pre('00', rs(B64U, 40)),
    false,
    (t) => `Authorization: SSWS ${t}`,
  ),
  P('auth0-client-secret', 'Auth0', ['AUTH0_CLIENT_SECRET'], () => bare(mixed(B64U, 64)), false),
  P(
    'fcm-server-key',
    'Firebase Cloud Messaging',
    ['FCM_SERVER_KEY'],
    () => pre('AAAA', `${rs(B64U, 7)}:APA91b${rs(B64U, 134)}`),
    true,
    (t) => `Authorization: key=${t}`,
  ),
  P('mapbox-secret', 'Mapbox', ['MAPBOX_SECRET_TOKEN'], () => pre('sk.', `eyJ1Ijoi${rs(B64U, 60)}.${rs(B64U, 22)}`)),
  P('contentful', 'Contentful', ['CONTENTFUL_MANAGEMENT_TOKEN'], () => pre('CFPAT-', rs(B64U, 43))),
  P(
    'postman',
    'Postman',
    ['POSTMAN_API_KEY'],
    () => pre('PMAK-', `${rs(HEX, 24)}-${rs(HEX, 34)}`),
    true,
    (t) => `X-Api-Key: ${t}`,
  ),
  P('bitbucket-app-password', 'Bitbucket', ['BITBUCKET_APP_PASSWORD'], () =>
    pre('ATBB', `${rs(AN, 32)}${rs(HEXU, 8)}`),
  ),
  P(
    'circleci',
    'CircleCI',
    ['CIRCLE_TOKEN'],
    () => pre('CCIPAT_', `${rs(AN, 22)}_${rs(HEX, 40)}`),
    true,
    (t) => `Circle-Token: ${t}`,
  ),
  P('buildkite', 'Buildkite', ['BUILDKITE_API_TOKEN'], () => pre('bkua_', rs(HEX, 40))),
  P(
    'jfrog',
    'JFrog Artifactory',
    ['ARTIFACTORY_API_KEY'],
    () => pre('AKCp', rs(AN, 69)),
    true,
    (t) => `X-JFrog-Art-Api: ${t}`,
  ),
  P('sonar', 'SonarQube', ['SONAR_TOKEN'], () => pre(pick(['squ_', 'sqp_', 'sqa_']), rs(HEX, 40))),
  P('databricks', 'Databricks', ['DATABRICKS_TOKEN'], () => pre('dapi', rs(HEX, 32))),
  P('dropbox', 'Dropbox', ['DROPBOX_ACCESS_TOKEN'], () => pre('sl.', rs(B64U, 136))),
  P('meta-access', 'Meta Graph API', ['FB_ACCESS_TOKEN'], () => pre('EAAB', rs(AN, 180))),
  P('twitter-bearer', 'X (Twitter)', ['TWITTER_BEARER_TOKEN'], () =>
    pre('AAAAAAAAAAAAAAAAAAAAA', `${rs(AN, 25)}%3D${rs(AN, 50)}`),
  ),
  P('teams-webhook', 'Microsoft Teams webhook', ['TEAMS_WEBHOOK_URL'], () => {
    const path = `${uuid()}@${uuid()}/IncomingWebhook/${rs(HEX, 32)}/${uuid()}`;
    return { token: path, core: path };
  }),
  P('slack-webhook', 'Slack webhook', ['SLACK_WEBHOOK_URL'], () => {
    const path = `T${rs(UPN, 10)}/B${rs(UPN, 10)}/${rs(AN, 24)}`;
    return { token: path, core: path };
  }),
  P('discord-webhook', 'Discord webhook', ['DISCORD_WEBHOOK_URL'], () => {
    const path = `${digits(19)}/${rs(B64U, 68)}`;
    return { token: path, core: path };
  }),
  P(
    'shippo',
    'Shippo',
    ['SHIPPO_API_KEY'],
    () => pre('shippo_live_', rs(HEX, 40)),
    true,
    (t) => `Authorization: ShippoToken ${t}`,
  ),
  P('easypost', 'EasyPost', ['EASYPOST_API_KEY'], () => pre('EZAK', rs(AN, 54))),
  P('flutterwave', 'Flutterwave', ['FLW_SECRET_KEY'], () => pre('FLWSECK-', `${rs(HEX, 32)}-X`)),
  P('paystack', 'Paystack', ['PAYSTACK_SECRET_KEY'], () => pre('sk_live_', rs(HEX, 40))),
  P('mollie', 'Mollie', ['MOLLIE_API_KEY'], () => pre('live_', rs(AN, 30))),
  P('alibaba-access-key', 'Alibaba Cloud', ['ALIBABA_CLOUD_ACCESS_KEY_ID'], () => pre('LTAI', rs(AN, 20))),
  P('tencent-secret-id', 'Tencent Cloud', ['TENCENTCLOUD_SECRET_ID'], () => pre('AKID', rs(AN, 32))),
  P('scaleway', 'Scaleway', ['SCW_SECRET_KEY'], () => bare(uuid()), false),
  P('age-secret-key', 'age', ['SOPS_AGE_KEY'], () => pre('AGE-SECRET-KEY-1', rs(BECH, 58))),
  P('groq', 'Groq', ['GROQ_API_KEY'], () => pre('gsk_', rs(AN, 52))),
  P('replicate', 'Replicate', ['REPLICATE_API_TOKEN'], () => pre('r8_', rs(AN, 37))),
  P('perplexity', 'Perplexity', ['PERPLEXITY_API_KEY'], () => pre('pplx-', rs(AN, 48))),
  P('xai', 'xAI', ['XAI_API_KEY'], () => pre('xai-', rs(AN, 80))),
  P('openrouter', 'OpenRouter', ['OPENROUTER_API_KEY'], () => pre('sk-or-v1-', rs(HEX, 64))),
  P('langsmith', 'LangSmith', ['LANGSMITH_API_KEY', 'LANGCHAIN_API_KEY'], () =>
    pre(pick(['lsv2_pt_', 'lsv2_sk_']), `${rs(HEX, 32)}_${rs(HEX, 10)}`),
  ),
  P('wandb', 'Weights & Biases', ['WANDB_API_KEY'], () => bare(rs(HEX, 40)), false),
  P(
    'pinecone',
    'Pinecone',
    ['PINECONE_API_KEY'],
    () => pre('pcsk_', `${rs(AN, 6)}_${rs(AN, 64)}`),
    true,
    (t) => `Api-Key: ${t}`,
  ),
  P('mistral', 'Mistral', ['MISTRAL_API_KEY'], () => bare(mixed(AN, 32)), false),
  P('cohere', 'Cohere', ['COHERE_API_KEY', 'CO_API_KEY'], () => bare(mixed(AN, 40)), false),
  P('posthog-personal', 'PostHog personal', ['POSTHOG_PERSONAL_API_KEY'], () => pre('phx_', rs(AN, 47))),
  P(
    'dynatrace',
    'Dynatrace',
    ['DT_API_TOKEN'],
    () => pre('dt0c01.', `${rs(UPN, 24)}.${rs(UPN, 64)}`),
    true,
    (t) => `Authorization: Api-Token ${t}`,
  ),
  P('prefect', 'Prefect Cloud', ['PREFECT_API_KEY'], () => pre('pnu_', rs(AN, 36))),
  P('readme', 'ReadMe', ['README_API_KEY'], () => pre('rdme_', rs(AN, 70))),
  P('typeform', 'Typeform', ['TYPEFORM_TOKEN'], () => pre('tfp_', `${rs(B64U, 44)}_${rs(B64U, 14)}`)),
  P('infracost', 'Infracost', ['INFRACOST_API_KEY'], () => pre('ico-', rs(AN, 32))),
  P('launchdarkly', 'LaunchDarkly', ['LD_API_KEY'], () => pre('api-', uuid())),
  P('onepassword-service', '1Password service account', ['OP_SERVICE_ACCOUNT_TOKEN'], () =>
    pre('ops_', `eyJzaWduSW5BZGRyZXNzIjoi${rs(B64, 200)}`),
  ),
  P('tailscale', 'Tailscale', ['TS_AUTHKEY'], () => pre('tskey-auth-', `k${rs(AN, 16)}-${rs(AN, 33)}`)),
  P(
    'sourcegraph',
    'Sourcegraph',
    ['SRC_ACCESS_TOKEN'],
    () => pre('sgp_', `${rs(HEX, 16)}_${rs(HEX, 40)}`),
    true,
    (t) => `Authorization: token ${t}`,
  ),
  P(
    'octopus',
    'Octopus Deploy',
    ['OCTOPUS_API_KEY'],
    () => pre('API-', rs(UPN, 26)),
    true,
    (t) => `X-Octopus-ApiKey: ${t}`,
  ),
  P('hubspot', 'HubSpot private app', ['HUBSPOT_ACCESS_TOKEN'], () => pre('pat-na1-', uuid())),
  P(
    'klaviyo',
    'Klaviyo private',
    ['KLAVIYO_PRIVATE_KEY'],
    () => pre('pk_', rs(HEX, 34)),
    true,
    (t) => `Authorization: Klaviyo-API-Key ${t}`,
  ),
  P(
    'adafruit',
    'Adafruit IO',
    ['ADAFRUIT_IO_KEY'],
    () => pre('aio_', rs(AN, 28)),
    true,
    (t) => `X-AIO-Key: ${t}`,
  ),
  P('frameio', 'Frame.io', ['FRAMEIO_TOKEN'], () => pre('fio-u-', rs(B64U, 64))),
  P(
    'azure-devops-pat',
    'Azure DevOps',
    ['AZURE_DEVOPS_EXT_PAT', 'SYSTEM_ACCESSTOKEN'],
    () => bare(rs(B32.toLowerCase(), 52)),
    false,
  ),
  P(
    'pagerduty',
    'PagerDuty',
    ['PAGERDUTY_TOKEN'],
    () => pre('u+', rs(B64U, 18)),
    false,
    (t) => `Authorization: Token token=${t}`,
  ),
  P('linode', 'Linode', ['LINODE_TOKEN'], () => bare(rs(HEX, 64)), false),
  P(
    'algolia-admin',
    'Algolia admin',
    ['ALGOLIA_ADMIN_KEY'],
    () => bare(rs(HEX, 32)),
    false,
    (t) => `X-Algolia-API-Key: ${t}`,
  ),
  P(
    'rollbar',
    'Rollbar',
    ['ROLLBAR_ACCESS_TOKEN'],
    () => bare(rs(HEX, 32)),
    false,
    (t) => `X-Rollbar-Access-Token: ${t}`,
  ),
  P('salesforce', 'Salesforce', ['SF_ACCESS_TOKEN'], () => pre('00D', `${rs(AN, 15)}!${rs(B64U + '.', 96)}`)),
  P('intercom', 'Intercom', ['INTERCOM_ACCESS_TOKEN'], () => pre('dG9rOj', rs(B64, 54) + '=')),
  P('gocardless', 'GoCardless', ['GOCARDLESS_ACCESS_TOKEN'], () => pre('live_', rs(B64U, 40))),
  P('lob', 'Lob', ['LOB_API_KEY'], () => pre('live_', rs(HEX, 35))),
  P('deepseek', 'DeepSeek', ['DEEPSEEK_API_KEY'], () => pre('sk-', rs(HEX, 32))),
  P(
    'fastly',
    'Fastly',
    ['FASTLY_API_TOKEN'],
    () => bare(mixed(B64U, 32)),
    false,
    (t) => `Fastly-Key: ${t}`,
  ),
];

// ---------------------------------------------------------------- per-split pools
interface Fmt {
  name: string;
  f: (p: Provider, t: string) => string;
}
const envOf = (p: Provider): string => pick(p.env);
const lowerKey = (p: Provider): string => envOf(p).toLowerCase();
const webhookUrl = (p: Provider, t: string): string =>
  p.id === 'slack-webhook'
    ? `https://hooks.slack.com/services/${t}`
    : p.id === 'discord-webhook'
      ? `https://discord.com/api/webhooks/${t}`
      : p.id === 'teams-webhook'
        ? `https://contoso.webhook.office.com/webhookb2/${t}`
        : t;

const H_FMT: Fmt[] = [
  { name: 'env', f: (p, t) => `${envOf(p)}=${webhookUrl(p, t)}` },
  { name: 'yaml', f: (p, t) => `${p.id.split('-')[0]}:\n  ${lowerKey(p)}: ${webhookUrl(p, t)}\n  timeout: 30` },
  { name: 'json', f: (p, t) => `{ "service": "${p.name}", "credential": "${webhookUrl(p, t)}" }` },
  { name: 'toml', f: (p, t) => `[${p.id.split('-')[0]}]\napi_token = "${webhookUrl(p, t)}"` },
  { name: 'export', f: (p, t) => `export ${envOf(p)}="${webhookUrl(p, t)}"` },
  {
    name: 'flag',
    f: (p, t) => `./scripts/sync --provider ${p.id.split('-')[0]} --token ${webhookUrl(p, t)} --dry-run`,
  },
  { name: 'header', f: (p, t) => (p.header ?? bearer)(t) },
  {
    name: 'code',
    f: (p, t) => `const ${p.id.split('-')[0]}Key = "${webhookUrl(p, t)}"; // TODO move to the secret store`,
  },
  {
    name: 'table',
    f: (p, t) => `| service | env | value |\n| --- | --- | --- |\n| ${p.name} | prod | ${webhookUrl(p, t)} |`,
  },
  {
    name: 'prose',
    f: (p, t) =>
      pick(H_PROSE)
        .replace('{name}', p.name)
        .replace('{tok}', () => webhookUrl(p, t)),
  },
];
const T_FMT: Fmt[] = [
  { name: 'env', f: (p, t) => `# ${p.name}\n${envOf(p)}="${webhookUrl(p, t)}"` },
  { name: 'yaml', f: (p, t) => `env:\n  - name: ${envOf(p)}\n    value: "${webhookUrl(p, t)}"` },
  { name: 'json', f: (p, t) => `"${envOf(p)}": "${webhookUrl(p, t)}",` },
  { name: 'toml', f: (p, t) => `${lowerKey(p)} = '${webhookUrl(p, t)}'` },
  {
    name: 'export',
    f: (p, t) => pick([`set -gx ${envOf(p)} ${webhookUrl(p, t)}`, `$env:${envOf(p)} = "${webhookUrl(p, t)}"`]),
  },
  { name: 'flag', f: (p, t) => `docker run --rm -e ${envOf(p)}=${webhookUrl(p, t)} app:latest` },
  { name: 'header', f: (p, t) => `curl -sS -H "${(p.header ?? bearer)(t)}" https://api.internal.test/v1/ping` },
  { name: 'code', f: (p, t) => `client = ${p.name.replace(/[^A-Za-z]/g, '')}Client(api_key="${webhookUrl(p, t)}")` },
  { name: 'table', f: (p, t) => `| ${envOf(p)} | \`${webhookUrl(p, t)}\` | rotated quarterly |` },
  {
    name: 'prose',
    f: (p, t) =>
      pick(T_PROSE)
        .replace('{name}', p.name)
        .replace('{tok}', () => webhookUrl(p, t)),
  },
];

const H_PROSE = [
  'The {name} key for the staging account is {tok}; rotate it after the demo.',
  'Note to self: {name} access uses {tok} until the vault migration lands.',
  'If the nightly job fails with 401, the {name} credential {tok} has probably been revoked.',
  'Use {tok} when the {name} dashboard asks for a token.',
  'Ops handed over the {name} token ({tok}) during the on-call swap.',
  '{name} token for local testing: {tok}',
  "We share one {name} key across the team, it's {tok}, please don't paste it in chat.",
  'Paste {tok} into the {name} login prompt when it asks.',
];
const T_PROSE = [
  'Heads up: the deploy script reads {tok} for {name}, hard-coded for now.',
  '{name} creds — {tok} — belong to the bot account, not to a person.',
  'Somebody committed {tok} to the {name} config last week and it still works.',
  'For {name}, authenticate with {tok} and the default region.',
  'The integration tests call {name} with {tok} (sandbox project).',
  'Remember: {tok} is the {name} secret the release pipeline needs.',
  'Asked support to extend {tok}, our {name} token, until March.',
  'Current {name} key → {tok}',
];

// ---------------------------------------------------------------- passwords and keyword context
const WORDS = [
  'maple',
  'orbit',
  'quartz',
  'lantern',
  'cobalt',
  'tundra',
  'violet',
  'harbor',
  'pepper',
  'glacier',
  'saffron',
  'meadow',
  'falcon',
  'ember',
  'nimbus',
  'walrus',
];
function password(): string {
  const style = int(0, 3);
  if (style === 0) return rs(AN, 1) + mixed(PWCH, int(11, 21));
  if (style === 1) return `${pick(WORDS)}-${pick(WORDS)}-${int(10, 99)}-${pick(WORDS)}`;
  if (style === 2)
    return `${pick(WORDS)[0]?.toUpperCase()}${rs(LOWER, 5)}${int(100, 9999)}${pick(['!', '#', '%', '*'])}${rs(UPPER, 2)}`;
  return mixed(AN, int(16, 32));
}
function urlPassword(): string {
  return int(0, 1) === 0 ? rs(AN, 1) + mixed(URLPW, int(11, 23)) : `${pick(WORDS)}${int(10, 99)}${rs(AN, 6)}`;
}
const WEAK = [
  'letmein',
  'sunshine',
  'dragon',
  'football',
  'welcome1',
  'monkey',
  'trustno1',
  'princess',
  'qwerty123',
  'iloveyou',
];

interface KwFmt {
  kind: string;
  f: (pw: string) => string;
  val?: () => string;
}
const H_KW: KwFmt[] = [
  { kind: 'keyword-context', f: (s) => `database:\n  host: db.internal\n  user: app\n  password: ${s}` },
  { kind: 'keyword-context', f: (s) => `DB_PASSWORD=${s}` },
  { kind: 'keyword-context', f: (s) => `{"username": "reporter", "password": "${s}"}` },
  { kind: 'keyword-context', f: (s) => `mysql -u admin -p${s} -h mysql.staging.internal shop` },
  { kind: 'keyword-context', f: (s) => `smtp_pass = "${s}"` },
  { kind: 'keyword-context', f: (s) => `pw: ${s}` },
  { kind: 'keyword-context', f: (s) => `passphrase for the release signing key: ${s}` },
  { kind: 'keyword-context', f: (s) => `sshpass -p '${s}' ssh deploy@10.20.3.4` },
  { kind: 'keyword-context', f: (s) => `credentials: admin / ${s}` },
  { kind: 'keyword-context', f: (s) => `SECRET_KEY = "${s}"`, val: () => mixed(AN + '!@#%^&*(-_=+)', 50) },
  { kind: 'keyword-context', f: (s) => `api key: ${s}`, val: () => rs(HEX, 32) },
  { kind: 'keyword-context', f: (s) => `session_secret: ${s}`, val: () => rs(B64U, 48) },
  { kind: 'keyword-context', f: (s) => `keytool -list -keystore release.jks -storepass ${s}` },
  { kind: 'prose', f: (s) => `The admin password on the staging box is ${s}.` },
  { kind: 'prose', f: (s) => `Log in to the old Jenkins with user ci and password ${s} (it predates SSO).` },
  { kind: 'prose', f: (s) => `For the shared test tenant, the root account's password is ${s} — do not change it.` },
  { kind: 'prose', f: (s) => `Grafana admin still logs in with ${s} as the password; we never rotated it.` },
  { kind: 'prose', f: (s) => `The VPN pre-shared key is ${s}, ask IT before handing it out.` },
];
const T_KW: KwFmt[] = [
  { kind: 'keyword-context', f: (s) => `  db_password: "${s}"` },
  { kind: 'keyword-context', f: (s) => `export PGPASSWORD='${s}'` },
  { kind: 'keyword-context', f: (s) => `<add key="SmtpPassword" value="${s}" />` },
  { kind: 'keyword-context', f: (s) => `redis-cli -h cache.internal -a ${s} ping` },
  { kind: 'keyword-context', f: (s) => `storePassword "${s}"` },
  { kind: 'keyword-context', f: (s) => `RABBITMQ_DEFAULT_PASS=${s}` },
  { kind: 'keyword-context', f: (s) => `htpasswd -b -c .htpasswd ci ${s}` },
  { kind: 'keyword-context', f: (s) => `JWT_SECRET=${s}`, val: () => rs(B64U, 64) },
  { kind: 'keyword-context', f: (s) => `Secret: ${s}`, val: () => rs(AN, 40) },
  { kind: 'keyword-context', f: (s) => `mongosh --username app --password ${s} --authenticationDatabase admin` },
  { kind: 'keyword-context', f: (s) => `auth_token = ${s}`, val: () => rs(AN, 32) },
  { kind: 'keyword-context', f: (s) => `spring.datasource.password=${s}` },
  { kind: 'keyword-context', f: (s) => `ansible_become_pass: ${s}` },
  { kind: 'prose', f: (s) => `Wi-Fi in the lab: network "build-lab", passphrase ${s}.` },
  { kind: 'prose', f: (s) => `If the kiosk locks you out, the unlock PIN-password is ${s}.` },
  { kind: 'prose', f: (s) => `The keystore was created with ${s} as its password; Android builds need it.` },
  { kind: 'prose', f: (s) => `Router login is admin, and the pass is ${s} since the last reset.` },
  { kind: 'prose', f: (s) => `Our SFTP partner account uses the password ${s}, given to us by their support desk.` },
];
const H_WEAK = [
  (s: string) => `password: ${s}   # the legacy FTP box, yes really`,
  (s: string) => `The kiosk account's password is ${s}.`,
];
const T_WEAK = [
  (s: string) => `ADMIN_PASS=${s}`,
  (s: string) => `Test VM login: root with password ${s}, it is on the lab network only.`,
];

interface DsnFmt {
  f: (pw: string) => string;
}
const H_DSN: DsnFmt[] = [
  { f: (s) => `DATABASE_URL=postgres://app:${s}@db.prod.internal:5432/orders` },
  { f: (s) => `mysql://reporting:${s}@10.1.4.22:3306/analytics` },
  { f: (s) => `MONGODB_URI="mongodb+srv://svc-api:${s}@cluster0.ab12c.mongodb.net/app?retryWrites=true"` },
  { f: (s) => `amqp://worker:${s}@rabbit.internal:5672/%2f` },
  { f: (s) => `jdbc:sqlserver://sql01.corp.local:1433;databaseName=Billing;user=sa;password=${s};encrypt=true` },
  {
    f: (s) =>
      `"ConnectionStrings": { "Main": "Server=tcp:sql.internal,1433;Initial Catalog=Shop;User Id=shop_app;Password=${s};" }`,
  },
  { f: (s) => `git clone https://deploy:${s}@git.example.internal/platform/infra.git` },
  { f: (s) => `REDIS_URL=redis://:${s}@cache-1.internal:6379/0` },
  { f: (s) => `The reporting job connects with postgresql://readonly:${s}@replica.internal/warehouse.` },
  { f: (s) => `sqlalchemy.url = mysql+pymysql://etl:${s}@etl-db:3306/staging` },
];
const T_DSN: DsnFmt[] = [
  { f: (s) => `  url: postgresql://svc_orders:${s}@pg-main.internal:5432/orders?sslmode=require` },
  { f: (s) => `jdbc:mysql://mysql.internal:3306/crm?user=crm_app&password=${s}&useSSL=true` },
  { f: (s) => `mariadb://backup:${s}@192.168.10.5/inventory` },
  { f: (s) => `Data Source=sqlprod;Initial Catalog=Ledger;User ID=ledger;Password=${s};TrustServerCertificate=True` },
  { f: (s) => `smtp://mailer%40corp.test:${s}@smtp.mail.test:587` },
  { f: (s) => `ftp://uploader:${s}@files.partner.test/incoming/` },
  { f: (s) => `UPSTASH_REDIS_URL=rediss://default:${s}@eu1-fond-kite-31234.upstash.io:6379` },
  { f: (s) => `Driver={ODBC Driver 18 for SQL Server};Server=sql02;Database=HR;UID=hr_ro;PWD=${s};` },
  { f: (s) => `pip install --index-url https://ci:${s}@pypi.internal.test/simple/ internal-lib` },
  { f: (s) => `psql "host=pg.internal port=5432 dbname=app user=app password=${s}"` },
  { f: (s) => `CLICKHOUSE_DSN=clickhouse://default:${s}@ch.internal:9000/events` },
];
const H_BASIC = [
  (u: string, b: string) => `Authorization: Basic ${b}   (that is ${u} on the staging registry)`,
  (_u: string, b: string) => `{"auths": {"registry.internal.test": {"auth": "${b}"}}}`,
  (_u: string, b: string) => `wget --header="Authorization: Basic ${b}" https://artifacts.internal.test/latest.tgz`,
];
const T_BASIC = [
  (_u: string, b: string) => `_auth=${b}\nalways-auth=true`,
  (_u: string, b: string) => `curl -H 'Authorization: Basic ${b}' https://jenkins.internal.test/api/json`,
  (u: string, b: string) => `proxy auth header for ${u}: Basic ${b}`,
];

// ---------------------------------------------------------------- private keys
const KEY_TYPES = [
  { label: 'RSA PRIVATE KEY', head: 'MIIEpAIBAAKCAQEA', lines: 25 },
  { label: 'PRIVATE KEY', head: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', lines: 26 },
  { label: 'EC PRIVATE KEY', head: 'MHcCAQEEI', lines: 3 },
  {
    label: 'OPENSSH PRIVATE KEY',
    head: 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
    lines: 5,
    width: 70,
  },
  { label: 'DSA PRIVATE KEY', head: 'MIIBuwIBAAKBgQD', lines: 9 },
];
function keyBody(t: (typeof KEY_TYPES)[number]): string[] {
  const w = t.width ?? 64;
  const all = t.head + rs(B64, w * t.lines - t.head.length - int(0, 30));
  const out: string[] = [];
  for (let i = 0; i < all.length; i += w) out.push(all.slice(i, i + w));
  const last = out.length - 1;
  const pad = (4 - ((out[last] as string).length % 4)) % 4;
  out[last] = (out[last] as string) + '='.repeat(pad);
  return out;
}

// ---------------------------------------------------------------- disguises
const FW = (s: string): string =>
  [...s].map((c) => (c >= '!' && c <= '~' ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join('');
const hexOf = (s: string): string => Buffer.from(s, 'utf8').toString('hex');
function b64Span(line: string, start: number, end: number): string {
  const enc = b64(line);
  return enc.slice(4 * Math.floor(start / 3), Math.min(enc.length, 4 * Math.ceil(end / 3)));
}
function letterPos(t: string, from: number): number {
  for (let i = Math.max(from, 4); i < t.length; i++) if (/[A-Za-z0-9]/.test(t[i] as string)) return i;
  return t.length - 2;
}
interface Disg {
  kind: string;
  make: (p: Provider, tok: Tok) => { text: string; secret: string } | null;
}
const ZW = ['\u200b', '\u200c', '\u2060', '\ufeff'];
function insertAt(t: string, ch: string, n: number): string {
  const at: number[] = [];
  for (let i = 0; i < n; i++) at.push(int(5, t.length - 2));
  at.sort((a, b) => b - a);
  let s = t;
  for (const i of at) s = s.slice(0, i) + ch + s.slice(i);
  return s;
}
const H_DISG: Disg[] = [
  {
    kind: 'disguise-wrapped',
    make: (p, { token }) => {
      const m = Math.floor(token.length / 2);
      const s = `${token.slice(0, m)}\\\n  ${token.slice(m)}`;
      return { text: `${envOf(p)}=${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-wrapped',
    make: (p, { token }) => {
      const m = int(6, token.length - 4);
      const s = `${token.slice(0, m)}\n${token.slice(m)}`;
      return { text: `Pasting the ${p.name} token from the ticket: ${s} — it wrapped in the editor.`, secret: s };
    },
  },
  {
    kind: 'disguise-zero-width',
    make: (p, { token }) => {
      const s = insertAt(token, pick(ZW), 1);
      return { text: `${envOf(p)}=${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-zero-width',
    make: (p, { token }) => {
      const s = insertAt(token, '\u200b', 3);
      return { text: `${p.name} token (copied from chat): ${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-soft-hyphen',
    make: (p, { token }) => {
      const s = insertAt(token, '\u00ad', 2);
      return { text: `${lowerKey(p)}: ${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-fullwidth',
    make: (p, { token }) => {
      const s = FW(token);
      return { text: `${p.name} key — ${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-html-entity',
    make: (p, { token }) => {
      const i = letterPos(token, int(5, token.length - 4));
      const s = `${token.slice(0, i)}&#${token.codePointAt(i)};${token.slice(i + 1)}`;
      return { text: `<code>${envOf(p)}=${s}</code>`, secret: s };
    },
  },
  {
    kind: 'disguise-url-escape',
    make: (p, { token }) => {
      const i = letterPos(token, int(5, token.length - 4));
      const s = `${token.slice(0, i)}%${token.codePointAt(i)!.toString(16).toUpperCase()}${token.slice(i + 1)}`;
      return { text: `https://hooks.internal.test/relay?service=${p.id}&key=${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-json-escape',
    make: (p, { token }) => {
      const i = letterPos(token, int(5, token.length - 4));
      const s = `${token.slice(0, i)}\\u00${token.codePointAt(i)!.toString(16)}${token.slice(i + 1)}`;
      return { text: `{"name": "${p.id}", "secret": "${s}"}`, secret: s };
    },
  },
  {
    kind: 'disguise-base64',
    make: (p, { token }) => {
      const line = `${envOf(p)}=${token}\n`;
      const start = line.indexOf('=') + 1;
      const s = b64Span(line, start, start + token.length);
      return {
        text: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-env\ntype: Opaque\ndata:\n  .env: ${b64(line)}`,
        secret: s,
      };
    },
  },
  {
    kind: 'disguise-base64',
    make: (p, { token }) => {
      const s = b64(token);
      return { text: `kind: Secret\ndata:\n  ${envOf(p)}: ${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-hex',
    make: (p, { token }) => {
      const s = hexOf(token);
      return { text: `echo ${s} | xxd -r -p > ~/.config/${p.id}.key`, secret: s };
    },
  },
];
const T_DISG: Disg[] = [
  {
    kind: 'disguise-wrapped',
    make: (p, { token }) => {
      const m = int(8, token.length - 5);
      const s = `${token.slice(0, m)}\n    ${token.slice(m)}`;
      return { text: `${lowerKey(p)}: >-\n    ${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-wrapped',
    make: (p, { token }) => {
      const m = Math.floor(token.length / 2);
      const s = `${token.slice(0, m)}"\n  + "${token.slice(m)}`;
      return { text: `const key = "${s}"; // ${p.name}`, secret: s };
    },
  },
  {
    kind: 'disguise-zero-width',
    make: (p, { token }) => {
      const s = insertAt(token, pick(ZW), 2);
      return { text: `"${envOf(p)}": "${s}"`, secret: s };
    },
  },
  {
    kind: 'disguise-soft-hyphen',
    make: (p, { token }) => {
      const s = insertAt(token, '\u00ad', 1);
      return { text: `The ${p.name} token, as the wiki renders it: ${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-soft-hyphen',
    make: (p, { token }) => {
      const s = insertAt(token, '\u00ad', 4);
      return { text: `export ${envOf(p)}=${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-fullwidth',
    make: (p, { token }) => {
      const s = FW(token);
      return { text: `${envOf(p)}＝${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-html-entity',
    make: (p, { token }) => {
      const i = letterPos(token, int(5, token.length - 4));
      const s = `${token.slice(0, i)}&#x${token.codePointAt(i)!.toString(16)};${token.slice(i + 1)}`;
      return { text: `<p>${p.name} token: ${s}</p>`, secret: s };
    },
  },
  {
    kind: 'disguise-url-escape',
    make: (p, { token }) => {
      const i = letterPos(token, int(5, token.length - 4));
      const s = `${token.slice(0, i)}%${token.codePointAt(i)!.toString(16)}${token.slice(i + 1)}`;
      return { text: `${envOf(p)}=${s} (URL-encoded by the form)`, secret: s };
    },
  },
  {
    kind: 'disguise-json-escape',
    make: (p, { token }) => {
      const i = letterPos(token, int(5, token.length - 4));
      const s = `${token.slice(0, i)}\\u00${token.codePointAt(i)!.toString(16).toUpperCase()}${token.slice(i + 1)}`;
      return { text: `settings.json: { "${lowerKey(p)}": "${s}" }`, secret: s };
    },
  },
  {
    kind: 'disguise-base64',
    make: (p, { token }) => {
      const line = `export ${envOf(p)}=${token}`;
      const start = line.indexOf('=') + 1;
      const s = b64Span(line, start, start + token.length);
      return { text: `echo ${b64(line)} | base64 -d >> ~/.profile`, secret: s };
    },
  },
  {
    kind: 'disguise-base64',
    make: (p, { token }) => {
      const s = b64(token);
      return { text: `stringData is not used here; data.${lowerKey(p)} = ${s}`, secret: s };
    },
  },
  {
    kind: 'disguise-hex',
    make: (p, { token }) => {
      const line = `${envOf(p)}=${token}`;
      const s = hexOf(token);
      return { text: `config blob (hex): ${hexOf(line)}`, secret: s };
    },
  },
];

// ---------------------------------------------------------------- negatives
interface Neg {
  kind: string;
  f: () => string;
}
const sha40 = (): string => rs(HEX, 40);
const H_NEG: Neg[] = [
  // near misses
  { kind: 'near-miss', f: () => `GITHUB_TOKEN=ghp_${rs(AN, int(8, 20))}` },
  {
    kind: 'near-miss',
    f: () =>
      `The AWS key id ${pick(['AKIA', 'AKIB', 'AIKA'])}${rs(UPN, int(6, 10))} in the log is truncated, ignore it.`,
  },
  { kind: 'near-miss', f: () => `glpat-${rs(LOWER, 6)} is how the docs abbreviate a GitLab token.` },
  { kind: 'near-miss', f: () => `xoxb-${rs(DIG, 4)} looks like a Slack token prefix but this is a ticket number.` },
  { kind: 'near-miss', f: () => `npm_${rs(LOWER, 5)}_cache_dir is set by the wrapper script.` },
  { kind: 'near-miss', f: () => `sk_live_ keys are never used in tests; the fixture uses sk_fake_${rs(LOWER, 8)}.` },
  { kind: 'near-miss', f: () => `Branch name: feature/ghp-${rs(LOWN, 6)}-migration` },
  { kind: 'near-miss', f: () => `The build id ${pick(['SG', 'AK', 'SK'])}-${rs(DIG, 6)} failed on the ARM runner.` },
  { kind: 'near-miss', f: () => `hf_transfer is enabled for faster downloads (HF_HUB_ENABLE_HF_TRANSFER=1).` },
  { kind: 'near-miss', f: () => `sk-${rs(LOWER, 3)} is the CSS prefix for the skeleton loader component.` },
  { kind: 'near-miss', f: () => `Our stripe price id is price_${rs(AN, 24)}; prices are public.` },
  // placeholders
  {
    kind: 'placeholder',
    f: () => `DB_PASSWORD=${pick(['<password>', 'changeme', `\${DB_PASSWORD}`, 'xxx', 'TODO', '<your-password>'])}`,
  },
  {
    kind: 'placeholder',
    f: () =>
      `OPENAI_API_KEY=${pick(['your-api-key-here', 'sk-...', '<OPENAI_API_KEY>', 'sk-xxxxxxxxxxxxxxxxxxxxxxxx', 'replace-me'])}`,
  },
  {
    kind: 'placeholder',
    f: () => `AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE (the example key from the AWS docs, for the local mock only)`,
  },
  { kind: 'placeholder', f: () => `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY` },
  { kind: 'placeholder', f: () => `password: "{{ vault_${pick(['db', 'smtp', 'ldap', 'redis'])}_password }}"` },
  {
    kind: 'placeholder',
    f: () => `token: \${{ secrets.${pick(['NPM_TOKEN', 'DEPLOY_KEY', 'SLACK_WEBHOOK', 'PYPI_TOKEN'])} }}`,
  },
  { kind: 'placeholder', f: () => `GITHUB_TOKEN=ghp_${'x'.repeat(36)}` },
  { kind: 'placeholder', f: () => `Put your key in .env as ANTHROPIC_API_KEY=<paste key here> and never commit it.` },
  {
    kind: 'placeholder',
    f: () => `api_key = os.environ["${pick(['STRIPE_API_KEY', 'SENDGRID_API_KEY', 'DD_API_KEY'])}"]`,
  },
  { kind: 'placeholder', f: () => `postgres://user:password@localhost:5432/${pick(['dev', 'test', 'app_dev'])}` },
  {
    kind: 'placeholder',
    f: () =>
      `The secret was [secret:${pick(['github-token', 'aws-access-key', 'password'])}] in the original note; it is masked.`,
  },
  { kind: 'placeholder', f: () => `SLACK_BOT_TOKEN=xoxb-your-bot-token` },
  { kind: 'placeholder', f: () => `password = "${'*'.repeat(int(6, 12))}"  # redacted by the support tool` },
  {
    kind: 'placeholder',
    f: () =>
      `Use op://Engineering/${pick(['Stripe', 'Postgres', 'Sentry'])}/credential to read it with the 1Password CLI.`,
  },
  // high-entropy non-secrets
  {
    kind: 'high-entropy-nonsecret',
    f: () => `Fixed in ${sha40()}; cherry-pick it onto release-${int(1, 9)}.${int(0, 20)}.`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `100644 blob ${sha40()}\tsrc/${pick(['index', 'server', 'cli'])}.ts` },
  { kind: 'high-entropy-nonsecret', f: () => `The tenant id is ${uuid()} (public, shown on the login page).` },
  {
    kind: 'high-entropy-nonsecret',
    f: () =>
      `<script src="https://cdn.example.test/lib.min.js" integrity="sha384-${rs(B64, 64)}" crossorigin="anonymous"></script>`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `"integrity": "sha512-${rs(B64, 86)}=="` },
  { kind: 'high-entropy-nonsecret', f: () => `checksum = "${rs(HEX, 64)}"` },
  {
    kind: 'high-entropy-nonsecret',
    f: () =>
      `github.com/${pick(['spf13/cobra', 'google/uuid', 'stretchr/testify'])} v1.${int(1, 9)}.${int(0, 9)} h1:${rs(B64, 43)}=`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `x-request-id: ${rs(HEX, 32)}` },
  { kind: 'high-entropy-nonsecret', f: () => `traceparent: 00-${rs(HEX, 32)}-${rs(HEX, 16)}-01` },
  { kind: 'high-entropy-nonsecret', f: () => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${rs(B64, 43)} deploy@ci` },
  { kind: 'high-entropy-nonsecret', f: () => `image: ghcr.io/acme/api@sha256:${rs(HEX, 64)}` },
  {
    kind: 'high-entropy-nonsecret',
    f: () =>
      `The banner text is stored as ${b64(pick(['Welcome back to the dashboard', 'Maintenance window starts at noon', 'Please update your browser']))} in the CMS.`,
  },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `!function(e,t){var n=e.${rs(LOWER, 2)}||{};n.q=[];t.${rs(LOWER, 3)}="${rs(AN, 24)}";}(window,document);`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `STRIPE_PUBLISHABLE_KEY=pk_live_${rs(AN, 99)}` },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `SENTRY_DSN=https://${rs(HEX, 32)}@o${digits(6)}.ingest.sentry.io/${digits(7)}`,
  },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `password: ENC[AES256_GCM,data:${rs(B64, 24)},iv:${rs(B64, 43)}=,tag:${rs(B64, 22)}==,type:str]`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `Cloudflare zone id for the docs site: ${rs(HEX, 32)}` },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `Stripe request id req_${rs(AN, 14)} in the failed webhook delivery log.`,
  },
  {
    kind: 'high-entropy-nonsecret',
    f: () =>
      `-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE${rs(B64, 28)}\n${rs(B64, 56)}==\n-----END PUBLIC KEY-----`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `NEXT_PUBLIC_POSTHOG_KEY=phc_${rs(AN, 43)}` },
  // prose without values
  { kind: 'prose-no-value', f: () => pick(H_NOVAL) },
];
const H_NOVAL = [
  'Passwords must be at least 12 characters and include a digit.',
  'The CI reads GITHUB_TOKEN from the repository secrets; never hard-code it.',
  'Rotate the Stripe secret key whenever someone leaves the payments team.',
  'The API key lives in 1Password under "Sendgrid prod".',
  'password_reset_token_ttl: 3600',
  'If the token expires, run `gh auth login` again.',
  'Do not log request bodies: they may contain passwords.',
  'secret_name: app-db-credentials',
  'Ask Priya for the Datadog API key; she owns the account.',
  'The vault path for database credentials is secret/data/prod/db.',
  'AWS credentials come from the instance role, not from env vars.',
  'Token refresh happens in src/auth/refresh.ts every 50 minutes.',
  'We removed the passphrase prompt from the deploy script in v3.',
  'const PASSWORD_MIN_LENGTH = 12;',
  'NPM_TOKEN must be set in the environment before `npm publish`.',
  'The `password` column is a bcrypt hash; never compare it with ==.',
  'rotate_api_keys: true',
  'Password managers are allowed; browser autofill is not.',
  'The secret scanning job runs on every pull request.',
  'SSH keys for the bastion are issued by the CA for 8 hours.',
  'If you see "invalid api key" from OpenAI, check the organisation header.',
  'Store tokens in the OS keychain via keytar, not in plain files.',
  'export DATABASE_PASSWORD  # set by direnv from the team vault',
  'MFA is required for every account that can read production secrets.',
  'The webhook signing secret is per endpoint; look it up in the dashboard.',
];
const T_NEG: Neg[] = [
  { kind: 'near-miss', f: () => `"npm_token": "npm_${rs(AN, int(10, 24))}"` },
  { kind: 'near-miss', f: () => `ticket AKIA-${rs(DIG, 4)} tracks the key rotation work` },
  {
    kind: 'near-miss',
    f: () => `gho_${rs(LOWER, 4)} and ghs_${rs(LOWER, 4)} prefixes are explained in the auth handbook.`,
  },
  { kind: 'near-miss', f: () => `The CSS class .sk-live-${rs(LOWER, 5)} styles the live badge.` },
  { kind: 'near-miss', f: () => `glpat is GitLab's prefix; ours was glpat-${rs(AN, 7)} (expired stub from the docs).` },
  {
    kind: 'near-miss',
    f: () => `AIza${rs(AN, 8)} is only the start of the key printed in the error; the rest was cut.`,
  },
  { kind: 'near-miss', f: () => `docker tag app:${rs(HEX, 7)} registry.internal/app:dckr_pat_build` },
  { kind: 'near-miss', f: () => `The metric name is slack_xoxb_${rs(LOWER, 6)}_errors_total.` },
  { kind: 'near-miss', f: () => `SKU SK${rs(DIG, 6)} is out of stock in the warehouse feed.` },
  { kind: 'near-miss', f: () => `Customer id cus_${rs(AN, 14)} asked for a refund.` },
  // placeholders
  {
    kind: 'placeholder',
    f: () => `  password: ${pick(['changeme', 'CHANGE_ME', 'REPLACE_ME', 'password', 'secret', 'example'])}`,
  },
  {
    kind: 'placeholder',
    f: () =>
      `export STRIPE_SECRET_KEY=${pick(['sk_live_...', '"$STRIPE_SECRET_KEY"', '<stripe-secret>', 'sk_live_XXXXXXXXXXXXXXXXXXXXXXXX'])}`,
  },
  {
    kind: 'placeholder',
    f: () => `"apiKey": "${pick(['YOUR_API_KEY', 'INSERT_KEY_HERE', '<api-key>', '***', 'REDACTED'])}"`,
  },
  { kind: 'placeholder', f: () => `mysql -u root -p  # it prompts for the password` },
  { kind: 'placeholder', f: () => `DATABASE_URL=postgres://\${PGUSER}:\${PGPASSWORD}@\${PGHOST}:5432/\${PGDATABASE}` },
  { kind: 'placeholder', f: () => `aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE --profile docs-demo` },
  {
    kind: 'placeholder',
    f: () => `token = process.env.${pick(['LINEAR_API_KEY', 'NOTION_TOKEN', 'FIGMA_TOKEN'])} ?? ''`,
  },
  { kind: 'placeholder', f: () => `Authorization: Bearer <token>` },
  {
    kind: 'placeholder',
    f: () => `curl -u admin:admin http://localhost:8080/ # default dev credentials of the local container`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  ${rs(DIG, 64)}` },
  { kind: 'placeholder', f: () => `HF_TOKEN=hf_${'X'.repeat(34)}` },
  { kind: 'placeholder', f: () => `password=%(${pick(['db', 'mail', 'queue'])}_password)s` },
  {
    kind: 'placeholder',
    f: () =>
      `The masked value [secret:${pick(['stripe-secret', 'slack-token', 'private-key'])}] stays masked in the export.`,
  },
  { kind: 'placeholder', f: () => `SENDGRID_API_KEY=SG.xxxxxxxx.yyyyyyyy` },
  // high-entropy non-secrets
  { kind: 'high-entropy-nonsecret', f: () => `Reverted ${rs(HEX, 12)} (the flaky retry change) in ${sha40()}.` },
  { kind: 'high-entropy-nonsecret', f: () => `git cat-file -p ${sha40()}` },
  { kind: 'high-entropy-nonsecret', f: () => `"id": "${uuid()}", "status": "queued"` },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `  resolved "https://registry.yarnpkg.com/${pick(['lodash', 'chalk', 'semver'])}/-/x.tgz#${sha40()}"`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `    integrity: sha512-${rs(B64, 86)}==` },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `{file = "pkg-${int(1, 9)}.${int(0, 9)}.tar.gz", hash = "sha256:${rs(HEX, 64)}"},`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `X-Amzn-Trace-Id: Root=1-${rs(HEX, 8)}-${rs(HEX, 24)}` },
  { kind: 'high-entropy-nonsecret', f: () => `span ${rs(HEX, 16)} of trace ${rs(HEX, 32)} took 912 ms` },
  { kind: 'high-entropy-nonsecret', f: () => `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${rs(B64, 300)} ops@bastion` },
  {
    kind: 'high-entropy-nonsecret',
    f: () =>
      `-----BEGIN CERTIFICATE-----\nMIIC${rs(B64, 60)}\n${rs(B64, 64)}\n${rs(B64, 40)}=\n-----END CERTIFICATE-----`,
  },
  {
    kind: 'high-entropy-nonsecret',
    f: () =>
      `The fixture file holds ${b64(pick(['The quick brown fox jumps over the lazy dog', 'hello from the integration test', 'Lorem ipsum dolor sit amet']))} as its payload.`,
  },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `var a=function(t){return t.${rs(LOWER, 1)}?"${rs(AN, 20)}":t};module.exports=a;`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `.${rs(LOWER, 1)}${rs(AN, 7)}{color:#${rs(HEX, 6)}}` },
  { kind: 'high-entropy-nonsecret', f: () => `MAPBOX_PUBLIC_TOKEN=pk.eyJ1Ijoi${rs(B64U, 60)}.${rs(B64U, 22)}` },
  { kind: 'high-entropy-nonsecret', f: () => `SUPABASE_PUBLISHABLE_KEY=sb_publishable_${rs(B64U, 32)}` },
  { kind: 'high-entropy-nonsecret', f: () => `ETag: "${rs(HEX, 32)}"` },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `AWS account ${digits(12)}, role arn:aws:iam::${digits(12)}:role/ci-deploy`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `The Twilio account SID AC${rs(HEX, 32)} is the account's public id.` },
  {
    kind: 'high-entropy-nonsecret',
    f: () => `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA${rs(B64, 80)}">`,
  },
  { kind: 'high-entropy-nonsecret', f: () => `$ANSIBLE_VAULT;1.1;AES256\n${rs(DIG, 80)}\n${rs(DIG, 80)}` },
  // prose without values
  { kind: 'prose-no-value', f: () => pick(T_NOVAL) },
];
const T_NOVAL = [
  'Every service account password is 32 random characters, generated by the vault.',
  'Never echo $NPM_TOKEN in CI logs; the masker misses it in multiline output.',
  'SLACK_WEBHOOK_URL is configured per environment in the deploy settings.',
  'The password field on the sign-up form must show a strength meter.',
  'api_key_header_name: X-Api-Key',
  'We use short-lived tokens from OIDC, so there is no long-lived AWS key to store.',
  'Secrets go in the sealed-secrets controller, not in plain ConfigMaps.',
  'The database password rotates every 30 days via the rotation lambda.',
  'token_endpoint: https://auth.internal.test/oauth2/token',
  'Check that the PAT has the `repo` scope before running the release.',
  'Forgot your password? The reset link expires after one hour.',
  'def get_secret(name: str) -> str:  # reads from the secret manager',
  'The keystore passphrase is kept by the mobile lead, not in the repo.',
  'pypi publishing uses trusted publishing; no token is needed.',
  'password_hash = argon2id(password, salt)',
  'The OpenAI key is project-scoped and lives in the CI secret OPENAI_API_KEY.',
  'Private keys never leave the HSM.',
  'Generate a new deploy key with `ssh-keygen -t ed25519 -C deploy`.',
  'Credentials for the staging DB are in the team vault under staging/db.',
  'Session cookies are signed with a secret from the environment.',
  'If login fails three times, the account locks for fifteen minutes.',
  'LDAP bind password is injected by the operator at start-up.',
  'The token column was renamed to token_digest in migration 42.',
  'Use `aws sso login`; static access keys are banned.',
  'The auth middleware rejects requests with an empty bearer token.',
];

// ---------------------------------------------------------------- assembly
export function generate(split: Split): Row[] {
  const H = split === 'holdout-2';
  rnd = seededRandom(H ? 0x5ec2_4001 : 0x5ec2_7002);
  const FMT = H ? H_FMT : T_FMT;
  const rows: Omit<Row, 'id'>[] = [];
  const seen = new Set<string>();
  const add = (r: Omit<Row, 'id'>): boolean => {
    if (seen.has(r.text)) return false;
    if (r.secret !== null && r.text.split(r.secret).length !== 2) return false;
    if (r.secret !== null && r.core !== undefined && r.plain === undefined && !r.secret.includes(r.core))
      throw new Error(`core outside secret: ${r.text}`);
    seen.add(r.text);
    rows.push(r);
    return true;
  };
  // provider tokens: each provider in three of the split's formats
  for (const p of PROVIDERS) {
    const usable = p.id.endsWith('webhook') ? FMT.filter((f) => f.name !== 'header') : FMT;
    const fmts = shuffle([...usable]).slice(0, 3);
    for (const fm of fmts) {
      for (let tries = 0; tries < 10; tries++) {
        const tok = p.gen();
        const text = fm.f(p, tok.token);
        if (add({ text, secret: tok.token, kind: 'provider-token', provider: p.id, core: tok.core })) break;
      }
    }
  }
  // keyword context, prose, weak
  const KW = H ? H_KW : T_KW;
  for (let i = 0; i < 60; i++) {
    const k = KW[i % KW.length] as KwFmt;
    const s = k.val ? k.val() : password();
    add({ text: k.f(s), secret: s, kind: k.kind });
  }
  for (const f of H ? H_WEAK : T_WEAK)
    for (let i = 0; i < 3; i++) {
      const s = pick(WEAK);
      add({ text: f(s), secret: s, kind: 'keyword-context-weak' });
    }
  // DSNs
  const DSN = H ? H_DSN : T_DSN;
  for (let i = 0; i < 40; i++) {
    const s = urlPassword();
    add({ text: (DSN[i % DSN.length] as DsnFmt).f(s), secret: s, kind: 'dsn' });
  }
  // basic auth
  const BASIC = H ? H_BASIC : T_BASIC;
  for (let i = 0; i < 12; i++) {
    const u = pick(['ci', 'deploy', 'svc-build', 'jenkins', 'reader']);
    const b = b64(`${u}:${urlPassword()}`);
    add({ text: (BASIC[i % BASIC.length] as (u: string, b: string) => string)(u, b), secret: b, kind: 'basic-auth' });
  }
  // private keys
  for (let i = 0; i < 18; i++) {
    const kt = KEY_TYPES[i % KEY_TYPES.length] as (typeof KEY_TYPES)[number];
    const body = keyBody(kt);
    const core = (body[0] as string).slice(kt.head.length);
    const begin = `-----BEGIN ${kt.label}-----`;
    const end = `-----END ${kt.label}-----`;
    const variant = H ? i % 3 : (i + 1) % 3;
    if (variant === 2) {
      const secret = body.join('\\n');
      const text = H
        ? `{"type": "service_account", "private_key_id": "${rs(HEX, 40)}", "private_key": "${begin}\\n${secret}\\n${end}\\n"}`
        : `SIGNING_KEY="${begin}\\n${secret}\\n${end}"`;
      add({ text, secret, kind: 'private-key', core });
    } else {
      const secret = body.join('\n');
      const lead = H
        ? variant === 0
          ? 'deploy key for the mirror:\n'
          : ''
        : variant === 0
          ? '```\n'
          : 'cat > ~/.ssh/id_ci <<EOF\n';
      const tail = H ? (variant === 0 ? '' : '\n(from the old bastion)') : variant === 0 ? '\n```' : '\nEOF';
      add({ text: `${lead}${begin}\n${secret}\n${end}${tail}`, secret, kind: 'private-key', core });
    }
  }
  // disguises, over strong providers
  const strong = PROVIDERS.filter((p) => p.strong && !p.id.endsWith('webhook') && p.id !== 'flyio');
  const DISG = H ? H_DISG : T_DISG;
  for (let i = 0; i < 84; i++) {
    const d = DISG[i % DISG.length] as Disg;
    const p = pick(strong);
    const tok = p.gen();
    if (tok.token.includes(' ')) continue;
    const made = d.make(p, tok);
    if (made)
      add({ text: made.text, secret: made.secret, kind: d.kind, provider: p.id, plain: tok.token, core: tok.core });
  }
  const nPos = rows.length;
  // negatives
  const NEG = H ? H_NEG : T_NEG;
  const noval = H ? H_NOVAL : T_NOVAL;
  for (const s of noval) add({ text: s, secret: null, kind: 'prose-no-value' });
  const valued = NEG.filter((n) => n.kind !== 'prose-no-value');
  for (let j = 0; rows.length - nPos < 300 && j < 5000; j++) {
    const n = valued[j % valued.length] as Neg;
    add({ text: n.f(), secret: null, kind: n.kind });
  }
  const prefix = H ? 'holdout2' : 'train2';
  return shuffle(rows).map((r, i) => ({ id: `${prefix}-${String(i + 1).padStart(4, '0')}`, ...r }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const split = process.argv[2];
  if (split !== 'holdout-2' && split !== 'train-2') {
    console.error('usage: generate-blind.ts holdout-2|train-2');
    process.exit(2);
  }
  const rows = generate(split);
  const out = join(dirname(fileURLToPath(import.meta.url)), `${split}.jsonl`);
  writeFileSync(out, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const pos = rows.filter((r) => r.secret !== null).length;
  console.log(`${split}: ${pos} secrets, ${rows.length - pos} non-secrets`);
}
