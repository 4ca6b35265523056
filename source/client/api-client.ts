// The application API over loopback HTTP: what the CLI uses when a host runs.
import { CmError, isErrorCode } from '../errors.js';
import { API_TIMEOUT_MS } from '../limits.js';
import type { Application, HostStatus, JournalRow, MessageView, NoteInput, OperationView, Page, PageRequest, Receipt, TimelineRow } from '../protocol.js';

export class ApiClient implements Application {
  constructor(
    private readonly port: number,
    private readonly token: string,
  ) {}

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${this.port}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CmError('host_unreachable', `The common-memory host on 127.0.0.1:${this.port} did not answer (${(error as Error).cause ?? (error as Error).message}).`);
    }
    const payload = (await response.json().catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null;
    if (!response.ok) {
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
}

function pageQuery(request: PageRequest): string {
  const query = new URLSearchParams({ after: String(request.after), limit: String(request.limit) });
  if (request.agentId) query.set('agent', request.agentId);
  if (request.storeId) query.set('store', request.storeId);
  return query.toString();
}
