// Vendors' documented installers piped into a shell (`curl … https://sh.rustup.rs | sh`): the one
// download-into-an-interpreter a legitimate team note writes as a step for people. The poisoning
// lint blocks every download piped or substituted into an interpreter; a command recognised here
// only warns (`poison-official-installer`), so the reviewer still reads it.
//
// Recognised means all of this, read on the note as written (not on the lint's folded view):
// - the command is one of the documented shapes — `curl|wget … URL … | [sudo [-E]] sh|bash|zsh|python3`,
//   `sh -c "$(curl … URL)"`, `sh <(curl … URL)`, `irm|iwr URL | iex` — in plain ASCII (a look-alike
//   letter, a full-width form or a hidden character anywhere in it is not an official installer);
// - curl's or wget's flags are only those the vendors' commands use (no `-K`, `--resolve`, `-k`, a
//   second address, …), and the one address is `https://` to a host of the list below, exactly (no
//   user name, port, escape, `..`, subdomain or look-alike), under the official project's path on a
//   host others publish on (raw.githubusercontent.com, deno.land), never at a commit id or a pull
//   request's ref there (a fork's commit and a stranger's pull request are served under the parent's name);
// - nothing is piped into the command, no variable is set just before it, and what follows it up to
//   the end of the clause fetches, pipes, redirects or substitutes nothing;
// - the note sets no variable to another address or server (installers read their download source
//   from the environment) and does not tell the agent to run it: on its own, automatically, at
//   start-up or each session, silently, without asking (in several languages).
// Everything else piped into a shell stays blocked.

import { NO_CONFIRM } from './poison-structure.js';

interface InstallerSource {
  /** The exact host, lower case. */
  host: string;
  /** Where the script must be on a host that serves more than the vendor's installer; absent: anywhere. */
  path?: RegExp;
}

/**
 * Where documented installers come from (each vendor's own install page). A host shared with other
 * publishers is pinned to the official project's path.
 */
const SOURCES: readonly InstallerSource[] = [
  { host: 'sh.rustup.rs' },
  { host: 'static.rust-lang.org', path: /^\/rustup\// },
  { host: 'get.docker.com' },
  { host: 'test.docker.com' },
  { host: 'astral.sh', path: /^\/(?:uv|ruff)\// },
  { host: 'bun.sh', path: /^\/install(?:\.ps1)?$/ },
  { host: 'deno.land', path: /^\/(?:install\.(?:sh|ps1)|x\/install\/install\.(?:sh|ps1))$/ },
  {
    host: 'raw.githubusercontent.com',
    path: /^\/(?:homebrew\/install|nvm-sh\/nvm|ohmyzsh\/ohmyzsh|k3d-io\/k3d|helm\/helm|golangci\/golangci-lint|cargo-bins\/cargo-binstall|tilt-dev\/tilt|ajeetdsouza\/zoxide|pyenv\/pyenv-installer|ocaml\/opam)\//,
  },
  { host: 'install.ohmyz.sh' },
  { host: 'install.python-poetry.org' },
  { host: 'get.pnpm.io', path: /^\/install\.(?:sh|ps1)$/ },
  { host: 'get.volta.sh' },
  { host: 'starship.rs', path: /^\/install\.sh$/ },
  { host: 'fly.io', path: /^\/install\.(?:sh|ps1)$/ },
  { host: 'ollama.com', path: /^\/install\.(?:sh|ps1)$/ },
  { host: 'tailscale.com', path: /^\/install\.sh$/ },
  { host: 'get.k3s.io' },
  { host: 'get.sdkman.io' },
  { host: 'get.rvm.io' },
  { host: 'sdk.cloud.google.com' },
  { host: 'deb.nodesource.com', path: /^\/setup_(?:\d+|lts|current)\.x$/ },
  { host: 'rpm.nodesource.com', path: /^\/setup_(?:\d+|lts|current)\.x$/ },
  { host: 'nixos.org', path: /^\/nix\/install$/ },
  { host: 'install.determinate.systems', path: /^\/nix$/ },
  { host: 'get.pulumi.com' },
  { host: 'install.julialang.org' },
  { host: 'get-ghcup.haskell.org' },
  { host: 'get.haskellstack.org' },
  { host: 'foundry.paradigm.xyz' },
  { host: 'wasmtime.dev', path: /^\/install\.sh$/ },
  { host: 'get.wasmer.io' },
  { host: 'just.systems', path: /^\/install\.sh$/ },
  { host: 'taskfile.dev', path: /^\/install\.sh$/ },
  { host: 'setup.atuin.sh' },
  { host: 'pixi.sh', path: /^\/install\.(?:sh|ps1)$/ },
  { host: 'fnm.vercel.app', path: /^\/install$/ },
  { host: 'mise.run' },
  { host: 'pyenv.run' },
  { host: 'get.jetify.com', path: /^\/devbox$/ },
  { host: 'dl.dagger.io', path: /^\/dagger\/install\.sh$/ },
  { host: 'coder.com', path: /^\/install\.sh$/ },
  { host: 'install.duckdb.org' },
  { host: 'get.trunk.io' },
  { host: 'cli.doppler.com', path: /^\/install\.sh$/ },
  { host: 'get.scoop.sh' },
  { host: 'claude.ai', path: /^\/install\.(?:sh|ps1|cmd)$/ },
  { host: 'opencode.ai', path: /^\/install$/ },
];

/** Hosts whose paths name `owner/repo/ref/…`: a commit id may be a fork's commit, a pull ref a stranger's. */
const GIT_HOSTS = new Set(['raw.githubusercontent.com']);

/** The hosts of the list, for documentation and tests. */
export const OFFICIAL_INSTALLER_HOSTS: readonly string[] = SOURCES.map((source) => source.host);

/** A word of a command: no shell operator, substitution, grouping or redirection in it. */
const TOKEN = String.raw`[^\s|;&<>()$\`]+`;
const ARGS = String.raw`(?:\s+${TOKEN})+?`;
const FETCHER = String.raw`\\?(?:curl|wget)`;
const SHELL = String.raw`(?:\/(?:usr\/)?bin\/)?(?:sh|bash|zsh)`;
const PIPED_INTO = String.raw`(?:sudo(?:\s+-E)?\s+)?(?:\/(?:usr\/)?bin\/)?(?:sh|bash|zsh|python3?)(?![\w\/-]|\.\w)`;
const START = String.raw`(?<![\w.\/\\-])`;

/** The documented shapes; `f…` is the downloader, `a…` its arguments. */
const FORMS = new RegExp(
  [
    String.raw`${START}(?<f1>${FETCHER})(?<a1>${ARGS})\s*\|\s*${PIPED_INTO}`,
    String.raw`|${START}${SHELL}\s+-c\s+(?<q>["'])\$\(\s*(?<f2>${FETCHER})(?<a2>${ARGS})\s*\)\k<q>`,
    String.raw`|${START}${SHELL}\s+<\(\s*(?<f3>${FETCHER})(?<a3>${ARGS})\s*\)`,
    String.raw`|${START}(?<f4>irm|iwr|invoke-restmethod|invoke-webrequest)(?<a4>${ARGS})\s*\|\s*(?:iex|invoke-expression)(?![\w-])`,
  ].join(''),
  'gi',
);

/** Flags of the vendors' commands, per downloader; a flag that takes a value lists what it may be. */
const FLAGS: Record<'curl' | 'wget' | 'ps', { bare: RegExp; valued: ReadonlyMap<string, RegExp> }> = {
  curl: {
    bare: /^(?:-[fsSL]+|-o-|--tlsv1\.[23]|--location|--fail|--silent|--show-error|--compressed|--proto==https)$/,
    valued: new Map([
      ['--proto', /^=https$/],
      ['--retry', /^\d{1,2}$/],
      ['-o', /^-$/],
    ]),
  },
  wget: {
    bare: /^(?:-q|-nv|-qO-|-O-|--quiet|--https-only|--secure-protocol=TLSv1_[23]|--output-document=-)$/,
    valued: new Map([
      ['-O', /^-$/],
      ['-qO', /^-$/],
    ]),
  },
  // PowerShell's parameters ignore case.
  ps: { bare: /^(?:-useb|-usebasicparsing)$/, valued: new Map([['-uri', /^https:/]]) },
};

const unquote = (token: string) => token.replace(/^(["'])(.*)\1$/, '$2');

/** The one address of a downloader's arguments, when every argument is one the vendors use. */
function addressOf(downloader: string, args: string): string | null {
  const kind = /^\\?curl$/i.test(downloader) ? 'curl' : /^\\?wget$/i.test(downloader) ? 'wget' : 'ps';
  const flags = FLAGS[kind];
  const tokens = args.trim().split(/\s+/).map(unquote);
  let address: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = kind === 'ps' ? tokens[i]!.toLowerCase() : tokens[i]!;
    if (flags.bare.test(token)) continue;
    const valued = flags.valued.get(token);
    if (valued) {
      const value = tokens[i + 1];
      if (value === undefined || !valued.test(kind === 'ps' ? value.toLowerCase() : value)) return null;
      if (token === '-uri') {
        if (address !== null) return null;
        address = value;
      }
      i++;
      continue;
    }
    if (token.startsWith('-') || address !== null) return null;
    address = tokens[i]!;
  }
  return address;
}

/** Whether `address` is an official installer's: https, a listed host exactly, the project's path. */
function officialInstallerAddress(address: string): boolean {
  const parts = /^https:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)(\/[a-z0-9._~/+-]*)?$/i.exec(address);
  if (!parts) return false;
  const host = parts[1]!.toLowerCase();
  const path = parts[2] ?? '/';
  if (/\/\.{1,2}(?:\/|$)|\/\//.test(path)) return false;
  const source = SOURCES.find((candidate) => candidate.host === host);
  if (!source) return false;
  if (source.path && !source.path.test(path.toLowerCase())) return false;
  if (GIT_HOSTS.has(host)) {
    // `/owner/repo/<ref>/…`: a branch or tag of the project, not a commit id or a pull request's ref,
    // which GitHub serves under the parent's name though a fork or a stranger wrote them.
    const [, , , ref, kind] = path.split('/');
    if (/^[0-9a-f]{7,40}$/i.test(ref ?? '') || (ref === 'refs' && kind !== 'heads' && kind !== 'tags')) return false;
  }
  return true;
}

/** Where the rest of a command's clause ends: a code span's end, a sentence's end, a clause mark. */
const CLAUSE_END = /`|;|,\s|\s\(|\s[—–]\s|[.!?](?:\s|$)|\)(?=[.,;:!?]?(?:\s+\p{L}|\s*$))/u;
/**
 * What may not follow the interpreter in that clause: another command, download, substitution or
 * redirection, an argument that points the installer elsewhere (`--mirror`, `--registry`, …), or
 * `-c` (the interpreter then runs its argument, not the download).
 */
const TAIL_DANGER =
  /[|&<>$`(){}\\]|:\/\/|\bwww\.|\b(?:curl|wget|iwr|irm|invoke-\w+|eval|exec|source|fetch)\b|--?[\w-]*(?:mirror|registry|url|server|source|proxy|remote|index|repo)|(?:^|\s)-[a-z]*c(?:\s|$)/i;

/**
 * Whether the interpreter runs what was piped in: its first argument is none, `-s`, `-` or `--`
 * (then the script's own arguments), or a word of prose — not another flag, and not a file
 * (`bash /tmp/x.sh` runs the file and ignores the download).
 */
function readsStdin(clause: string): boolean {
  const first = clause.trim().split(/\s+/)[0] ?? '';
  if (first === '' || first === '-s' || first === '-' || first === '--' || first === '"' || first === "'") return true;
  return !first.startsWith('-') && !/[/.~]/.test(first);
}

/** Told to the agent rather than written for people, in English (the lint's folded view, lower case). */
const TOLD_TO_AGENT = new RegExp(
  [
    String.raw`\b(?:automatic(?:ally)?|auto-?(?:run|install|execute)|unattended|unprompted|silently|quietly|in the background|behind the scenes|on your own(?! (?:machine|computer|laptop|workstation|mac|pc|device)\b)|whenever|first thing|immediately|right away|straight away|whoever reads (?:this|it))\b`,
    String.raw`|\bcrontab\b|@reboot\b`,
    String.raw`|\bwithout (?:asking|telling|notifying|informing|prompting|confirming|confirmation|reading|reviewing|checking|review|approval|bothering|interrupting|disturbing|the user|anyone|a word)\b`,
    String.raw`|\b(?:no need|not necessary|unnecessary|needn't|need not|(?:don't|do not|doesn't|does not|never) (?:need|have) to) (?:to )?(?:ask|tell|mention|inform|read|review|check|confirm|prompt)\b|\b(?:don't|do not|never) (?:ask|prompt|confirm|tell|mention|inform|bother|wait|stop|read|review|check)\b`,
    String.raw`|\b(?:on|at|during) (?:every |each )?(?:start|start-?up|boot|log-?in|launch)\b|\b(?:session|agent) (?:start|starts|begins)\b`,
    String.raw`|\b(?:at|on) the (?:start|beginning) of (?:every|each|a|the|your|any) (?:session|task|run|conversation|chat)\b|\b(?:before|after) (?:every|each|any) (?:session|task|build|command|run|commit)\b|\b(?:every|each) (?:session|time you (?:start|begin|open))\b|\bbefore (?:anything|doing anything|you do anything) else\b`,
  ].join(''),
);
/**
 * The agent named in a sentence that does not negate (in English and other languages): "Agents:
 * …", "agent onboarding: run …", "the assistant should …" — but not "the agent must not run the
 * installer" or "don't run it from the agent".
 */
const AGENT_WORD =
  /\b(?:agents?|assistants?|the (?:ai|bot))\b|(?<!\p{L})(?:agentes?|l'agent|agenten|агент\p{L}*|agenta|agentów|ajan\p{L}*)(?!\p{L})|代理|智能体|助手|エージェント|에이전트/u;
const NEGATED_SENTENCE =
  /\b(?:not|never|don't|doesn't|do not|does not|mustn't|shouldn't|cannot|can't|won't|nobody|no one)\b|(?<!\p{L})(?:no|nunca|jamás|jamais|pas|nicht|kein\p{L}*|nie|niemals|non|não|nem|не|нельзя|никогда|niet|nooit|inte|aldrig|değil|yok|asla)(?!\p{L})|不|别|勿|禁止|しない|ないで|禁止|않|말고|마세요/u;
/** Where one sentence of the folded note ends. */
const SENTENCE_BREAK = /[.!?;\n。！？；]+/;

/** What an agent is told to do with the command: run it, install with it, take it as a step. */
const RUN_WORD =
  /\b(?:run\w*|install\w*|execut\w*|set\w* up|setup|bootstrap\w*|step|first|start\w*|onboard\w*|use|pipe\w*|curl|wget|it)\b|(?<!\p{L})(?:ejecut\p{L}*|instal\p{L}*|exécut\p{L}*|ausführ\p{L}*|выполн\p{L}*|запуст\p{L}*|uruchom\p{L}*|çalıştır\p{L}*)(?!\p{L})|运行|执行|安装|実行|インストール|실행|설치/u;

/** The step handed back to a person: "ask the user to install it", "point people at the doc rather than run it". */
const HANDED_TO_PERSON =
  /\b(?:rather than|instead of) (?:run|running|install|installing|execut\w*|piping|doing (?:it|that|so))\b|\b(?:ask|tell|remind)\s+(?:the\s+)?(?:users?|persons?|people|them|developers?|humans?|analysts?|teammates?)\s+to\s+(?:install|run|set|do)\b|\b(?:point|refer|send)\s+(?:the\s+)?(?:users?|persons?|people|them|developers?|humans?|analysts?|teammates?)\s+(?:at|to)\b/;

function agentAddressed(folded: string): boolean {
  // "Person-run setup step; agents should just tell you if a JDK is missing": the agent is named, but not told to run anything.
  return folded
    .split(SENTENCE_BREAK)
    .some(
      (sentence) =>
        AGENT_WORD.test(sentence) &&
        RUN_WORD.test(sentence) &&
        !NEGATED_SENTENCE.test(sentence) &&
        !HANDED_TO_PERSON.test(sentence),
    );
}

/** The same in other languages: automatically, each session, every time, silently. ("Without asking" is NO_CONFIRM's.) */
const TOLD_TO_AGENT_ML =
  /(?<!\p{L})(?:automáticamente|automaticamente|automatiquement|automatisch|автоматически|sesión|sesiones|sessão|sessione|sitzung|chaque session|début de (?:la |chaque )?session|сесси\p{L}*|silenciosamente|en silencio|silencieusement|en silence|stillschweigend|heimlich|in silenzio|di nascosto|незаметно|молча|сеанс\p{L}*|sesji|sessie|oturum\p{L}*|phiên|jedes mal|cada vez|chaque fois|ogni volta|каждый раз|za każdym razem|elke keer)(?!\p{L})|自动|自動|会话|會話|セッション|세션|자동|静默|悄悄|こっそり|몰래|每次|毎回|매번|確認なし|確認せずに|直接运行|直接執行/u;

/** The command made to run again and again, unseen: a cron schedule or a package script just before it… */
const PERSISTED_BEFORE =
  /(?:^|\s)(?:[\d*/,-]+\s+){4}[\d*/,-]+\s*['"`]?\s*$|@reboot\s+$|"(?:pre|post)?install"\s*:\s*"\s*$/;
/** …or put into a start-up file, a schedule or a hook just after it. */
const PERSISTED_AFTER =
  /^[^.\n]{0,40}?\b(?:to|into|in)\s+(?:the\s+|your\s+|their\s+|a\s+|every\s+)?(?:~\/)?[\w./ -]{0,20}?(?:bashrc|zshrc|profile|crontab|cron|rc\.local|postinstall|preinstall|hooks?)\b/i;

/** A variable set to another address or download server: installers read their source from the environment. */
const SOURCE_REDIRECTED = /\b[a-z_][a-z0-9_]*\s*=\s*["']?(?:[a-z][a-z0-9+.-]*:\/\/|git@)/i;
const SOURCE_VARIABLE =
  /\b[A-Z0-9_]*(?:URL|SERVER|SOURCE|MIRROR|REMOTE|ROOT|DIST|REGISTRY|INDEX|PROXY|HOST|BASE|REPO)[A-Z0-9_]*\s*=/;

/** How far before and after the lint's match an installer command is looked for (a command is shorter). */
const WINDOW_BEFORE = 1200;
const WINDOW_AFTER = 400;

/** The last note's whole-note verdict: a long note with many matches is read once, not once per match. */
let toldCache: { folded: string; original: string; toAgent: boolean } | undefined;

/** Whether the note tells the agent to run it (automatically, each session, silently, without asking) or points installers elsewhere. */
function toldToAgent(folded: string, original: string): boolean {
  if (toldCache?.folded === folded && toldCache.original === original) return toldCache.toAgent;
  const toAgent =
    TOLD_TO_AGENT.test(folded) ||
    TOLD_TO_AGENT_ML.test(folded) ||
    agentAddressed(folded) ||
    NO_CONFIRM.test(folded) ||
    SOURCE_REDIRECTED.test(original) ||
    SOURCE_VARIABLE.test(original);
  toldCache = { folded, original, toAgent };
  return toAgent;
}

/**
 * The whole command, when the download into an interpreter the lint found ending at `to` in
 * `original` is an official installer written as a step for people; null otherwise. `folded` is
 * the note in the lint's normalised view. Reads a bounded window around the match, so a long line
 * of many matches costs linear time.
 */
export function officialInstallerStep(
  original: string,
  to: number,
  folded: string,
): { offset: number; end: number } | null {
  const lo = Math.max(0, to - WINDOW_BEFORE);
  const lineStart = lo + original.slice(lo, to).lastIndexOf('\n') + 1;
  const ahead = original.slice(to, to + WINDOW_AFTER);
  const lineEnd = ahead.indexOf('\n') === -1 ? to + ahead.length : to + ahead.indexOf('\n');
  const window = original.slice(lineStart, lineEnd);
  FORMS.lastIndex = 0;
  for (const match of window.matchAll(FORMS)) {
    const start = lineStart + match.index;
    const end = start + match[0].length;
    // The lint's match must end inside this command: its pipe, substitution or interpreter is this one's.
    if (to <= start || to > end) continue;
    if (!/^[\x20-\x7e\t]*$/.test(match[0])) return null;
    const groups = match.groups!;
    const downloader = groups['f1'] ?? groups['f2'] ?? groups['f3'] ?? groups['f4']!;
    const args = groups['a1'] ?? groups['a2'] ?? groups['a3'] ?? groups['a4']!;
    const address = addressOf(downloader, args);
    if (address === null || !officialInstallerAddress(address)) return null;
    // Something piped into the command, or a variable set for it; a schedule or a package script around it.
    let bare = start;
    while (bare > lineStart && /\s/.test(original[bare - 1]!)) bare--;
    if (original[bare - 1] === '|') return null;
    const before = original.slice(Math.max(lineStart, bare - 200), start);
    if (/(?:^|\s)[a-z_][a-z0-9_]*=\S*\s+$/i.test(before) || PERSISTED_BEFORE.test(before)) return null;
    const rest = original.slice(end, lineEnd);
    if (PERSISTED_AFTER.test(rest)) return null;
    const clauseEnd = rest.search(CLAUSE_END);
    // A clause that runs on past the window is not read as a step.
    if (clauseEnd === -1 && lineEnd === to + WINDOW_AFTER) return null;
    // golangci-lint's documented command installs into `$(go env GOPATH)/bin`: that substitution reads a path.
    const clause = rest.slice(0, clauseEnd === -1 ? rest.length : clauseEnd).replace(/\$\(go env GOPATH\)/g, 'GOPATH');
    if (!/^[\x20-\x7e\t]*$/.test(clause) || TAIL_DANGER.test(clause)) return null;
    // Piped in: the interpreter must read the download. (Substituted, what follows is the script's arguments.)
    if (groups['f1'] !== undefined && !readsStdin(clause)) return null;
    return toldToAgent(folded, original) ? null : { offset: start, end };
  }
  return null;
}
