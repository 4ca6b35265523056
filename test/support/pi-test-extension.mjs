// A second pi extension for the capture scenarios, loaded with `pi -e` beside the installed one:
// what a person's own extensions and commands can make pi do, and what print or RPC mode cannot
// reach otherwise.
// - `/reload-now`: the same reload `/reload` runs in pi's interactive mode (ctx.reload()).
// - `big_output {bytes}`: a tool result of that many bytes of text.
// - `odd_block`: a tool result with a content block of a type pi 0.73.1 does not define.
export default function testExtension(pi) {
  pi.registerCommand('reload-now', {
    description: 'Reload extensions as /reload does',
    handler: async (_args, ctx) => {
      await ctx.reload();
    },
  });
  pi.registerTool({
    name: 'big_output',
    label: 'Big output',
    description: 'Returns that many bytes of text',
    parameters: {
      type: 'object',
      properties: { bytes: { type: 'integer', minimum: 1 } },
      required: ['bytes'],
      additionalProperties: false,
    },
    async execute(_id, params) {
      return { content: [{ type: 'text', text: 'x'.repeat(params.bytes) }], details: {} };
    },
  });
  pi.registerTool({
    name: 'odd_block',
    label: 'Odd block',
    description: 'Returns a content block of an unknown type',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    async execute() {
      return {
        content: [
          { type: 'text', text: 'before the odd block' },
          { type: 'hologram', payload: 'odd-shape-payload' },
        ],
        details: {},
      };
    },
  });
}
