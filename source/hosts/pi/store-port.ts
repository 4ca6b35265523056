// The store as the pi runtime needs it: the writer commands it calls, with the inputs it sends and
// the fields it reads from each answer. Owned here, so the runtime imports no store or worker
// module; the agents thread hands it the writer, and the compiler checks that the writer fits.

/** A settled prompt: its outcome and the evidence it rests on. */
export type Settle = { operationId: string; outcome: string; detail: unknown };

/** One framed line of a pi pipe, as evidence: its text, or its bytes when it is not text. */
export interface PiLineInput {
  generationId: string;
  stream: 'stdout' | 'stderr';
  ordinal: number;
  frame: 'record' | 'oversized' | 'invalid-utf8' | 'truncated';
  byteLength: number;
  limit?: number;
  text?: string;
  bytes?: string;
  /** A settlement that this line confirms, stored in the same transaction. */
  settle?: Settle;
}

/** stopGeneration: a protocol fault or an oversized record; the generation must stop. */
export interface IngestAnswer {
  stopGeneration: boolean;
  projectionFailure: string | null;
}

interface Receipt {
  storeId: string;
  operationId: string;
  sequence: number;
  replayed: boolean;
}

/** Each command the runtime calls: what it sends, and what it reads of the answer. */
export type PiStoreCalls = {
  beginGeneration: {
    input: { agent: string; hostId: string };
    result: {
      generationId: string;
      agentId: string;
      agentDir: string;
      piConfigDir: string | null;
      model: string | null;
    };
  };
  markGenerationRunning: { input: { generationId: string; pid: number }; result: unknown };
  markGenerationStopping: { input: { generationId: string; reason: string }; result: unknown };
  retireGeneration: {
    input: { generationId: string; orderly: boolean; reason: string; exitCode: number | null; signal: string | null };
    result: unknown;
  };
  admitPrompt: {
    input: { agent: string; text: string; operationId: string; piRequestId: string };
    result: Receipt & { messageId: string };
  };
  markAttempted: { input: { operationId: string }; result: unknown };
  requestAbort: { input: { agent: string; operationId?: string }; result: Receipt & { targetOperationId: string } };
  ingestPiRecord: { input: PiLineInput; result: IngestAnswer };
  settlePrompt: { input: Settle; result: unknown };
};

export interface PiStorePort {
  call<K extends keyof PiStoreCalls>(name: K, input: PiStoreCalls[K]['input']): Promise<PiStoreCalls[K]['result']>;
}

/** The port as one function per command: the form in which a store's fit is checked. */
export type PiStoreFunctions = {
  [K in keyof PiStoreCalls]: (input: PiStoreCalls[K]['input']) => Promise<PiStoreCalls[K]['result']>;
};
