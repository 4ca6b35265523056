// The application API over loopback HTTP: what the CLI uses when a host runs.
import { Agent, request as httpRequest } from 'node:http';
import { CmError, isErrorCode } from '../errors.js';
import { API_TIMEOUT_MS } from '../limits.js';
import type { CaptureStatus, DrainReport, FlushReport, SessionSearchRequest, SessionSearchResult } from '../protocol.js';
import type {
  AbortReceipt, AgentView, Application, CreateAgentInput, HostStatus, JournalRow, MessageView, NoteInput, OperationView, Page, PageRequest, PromptInput, PromptReceipt, Receipt, TimelineRow,
} from '../protocol.js';

// node:http with a keep-alive agent: fetch costs several times more per loopback request.
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function send(port: number, token: string, method: string, path: string, body: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent, timeout: API_TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${API_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

export class ApiClient implements Application {
  constructor(
    private readonly port: number,
    private readonly token: string,
  ) {}

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: { status: number; text: string };
    try {
      response = await send(this.port, this.token, method, path, body === undefined ? undefined : JSON.stringify(body));
    } catch (error) {
      throw new CmError('host_unreachable', `The common-memory host on 127.0.0.1:${this.port} did not answer (${(error as Error).message}).`);
    }
    let payload: { error?: { code?: unknown; message?: unknown } } | null = null;
    try {
      payload = JSON.parse(response.text);
    } catch {
      payload = null;
    }
    if (response.status >= 400) {
      const code = payload?.error?.code;
      const message = typeof payload?.error?.message === 'string' ? payload.error.message : `HTTP ${response.status}`;
      throw new CmError(isErrorCode(code) ? code : response.status >= 500 ? 'host_unreachable' : 'internal', message);
    }
    return payload as T;
  }

  status() {
    return this.request<HostStatus>('GET', '/v1/status');
  }

  appendNote(input: NoteInput) {
    return this.request<Receipt>('POST', '/v1/notes', input);
  }

  journal(request: PageRequest) {
    return this.request<Page<JournalRow>>('GET', `/v1/journal?${pageQuery(request)}`);
  }

  timeline(request: PageRequest) {
    return this.request<Page<TimelineRow>>('GET', `/v1/timeline?${pageQuery(request)}`);
  }

  message(messageId: string) {
    return this.request<MessageView>('GET', `/v1/messages/${encodeURIComponent(messageId)}`);
  }

  operation(operationId: string) {
    return this.request<OperationView>('GET', `/v1/operations/${encodeURIComponent(operationId)}`);
  }

  createAgent(input: CreateAgentInput) {
    return this.request<AgentView>('POST', '/v1/agents', input);
  }

  listAgents() {
    return this.request<AgentView[]>('GET', '/v1/agents');
  }

  startAgent(agent: string) {
    return this.request<AgentView>('POST', `/v1/agents/${encodeURIComponent(agent)}/start`, {});
  }

  stopAgent(agent: string) {
    return this.request<AgentView>('POST', `/v1/agents/${encodeURIComponent(agent)}/stop`, {});
  }

  prompt(input: PromptInput) {
    return this.request<PromptReceipt>('POST', `/v1/agents/${encodeURIComponent(input.agent)}/prompts`, { text: input.text, operationId: input.operationId });
  }

  abort(agent: string, operationId?: string) {
    return this.request<AbortReceipt>('POST', `/v1/agents/${encodeURIComponent(agent)}/abort`, operationId ? { operationId } : {});
  }

  abandon(operationId: string) {
    return this.request<OperationView>('POST', `/v1/operations/${encodeURIComponent(operationId)}/abandon`, {});
  }

  // ---- host capture (issue 4) ----
  captureStatus(request: { afterRecovery?: string | undefined }) {
    const query = request.afterRecovery === undefined ? '' : `?after-recovery=${encodeURIComponent(request.afterRecovery)}`;
    return this.request<CaptureStatus>('GET', `/v1/capture/status${query}`);
  }

  sessionDrain(request: { recover?: string | undefined }) {
    return this.request<DrainReport>('POST', '/v1/capture/drain', request.recover === undefined ? {} : { recover: request.recover });
  }

  flush() {
    return this.request<FlushReport>('POST', '/v1/capture/flush', {});
  }

  // ---- the memory half ----
  sessionSearch(request: SessionSearchRequest) {
    return this.request<SessionSearchResult>('POST', '/v1/search', request);
  }
}

function pageQuery(request: PageRequest): string {
  const query = new URLSearchParams({ after: String(request.after), limit: String(request.limit) });
  if (request.agentId) query.set('agent', request.agentId);
  if (request.storeId) query.set('store', request.storeId);
  return query.toString();
}
