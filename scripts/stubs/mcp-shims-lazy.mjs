// In the CommonJS CLI bundles (scripts/bundle.mjs) in place of the MCP SDK's Node shims
// (@modelcontextprotocol/server/_shims): the same `process`, and a DefaultJsonSchemaValidator that
// loads the SDK's own (Ajv, with its formats and dialects) when it first validates against a JSON
// schema — an elicitation answer, which common-memory never asks for — not at the server's start,
// where it was a tenth of the time to answer `initialize`.
import process from 'node:process';

let Real;

export class DefaultJsonSchemaValidator {
  #args;
  #real;

  constructor(...args) {
    this.#args = args;
  }

  #validator() {
    // The SDK's shims, resolved by the bundle's lazy-mcp-shims plugin to the real file.
    Real ??= require('mcp-shims-of-the-sdk').DefaultJsonSchemaValidator;
    this.#real ??= new Real(...this.#args);
    return this.#real;
  }

  get ajv() {
    return this.#validator().ajv;
  }

  getValidator(schema) {
    return this.#validator().getValidator(schema);
  }
}

export { process };
