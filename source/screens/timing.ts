// Screen refresh cadences, each with the reason for its order of magnitude. Protocol limits
// (page sizes, follow polling) stay in source/limits.ts; these only concern what a person sees.

/** Dashboard heads: once a second reads as "live" and is one cheap status call for the host. */
export const DASHBOARD_REFRESH_MS = 1000;

/** The Dashboard's background service line: it changes when someone installs or stops the service, and a read runs systemctl twice. */
export const SERVICE_REFRESH_MS = 5000;

/** Header host state when the dashboard is not shown: a dead host is noticed within seconds. */
export const HEADER_REFRESH_MS = 5000;

/** Spinner frame: fast enough to show motion, slow enough not to keep two cores busy repainting. */
export const SPINNER_FRAME_MS = 120;

/** Requests quicker than this show no spinner, so fast pages and follow polls do not flicker. */
export const SPINNER_DELAY_MS = 150;

/** Agent list (busy/idle, generation state): a prompt's end shows within a second. */
export const AGENTS_REFRESH_MS = 1000;

/** Processing status while idle: queue counts move with hooks and the drain, a second is live enough. */
export const STATUS_REFRESH_MS = 1000;

/** Processing status while a drain, flush or retry runs: the counts are the progress shown. */
export const STATUS_PROGRESS_MS = 250;
