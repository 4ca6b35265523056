#!/usr/bin/env node
// A hook wrapper for the live recovery test: at UserPromptSubmit it appends one line that is not
// JSON to the transcript (a corrupted write), then hands the same payload to the real hook. It
// passes on the host process instance, so the real hook joins the same activation.
// argv: <repo> <client> <home>
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [repo, client, home] = process.argv.slice(2);
const input = readFileSync(0);
const payload = JSON.parse(input.toString('utf8'));
if (payload.hook_event_name === 'UserPromptSubmit' && payload.transcript_path)
  appendFileSync(payload.transcript_path, '{"corrupted": \n');
const { processInstance } = await import(join(repo, 'dist/hook/process-instance.js'));
const instance = processInstance(client);
const result = spawnSync(process.execPath, [join(repo, 'bin/common-memory.cjs'), 'hook', client, '--home', home], {
  input,
  env: { ...process.env, COMMON_MEMORY_HOOK_INSTANCE: instance },
  stdio: ['pipe', 'inherit', 'inherit'],
});
process.exitCode = result.status ?? 1;
